// template/api/routes/web.ts, compiled, cut to the benchmark's routes; BENCH_ROUTES other parametric routes
// are registered first, for the route-count scaling cases.
import { Route } from 'fw-runtime';
import { HomeController } from '../App/Controllers/HomeController.js';
import { UserController } from '../App/Controllers/UserController.js';
for (let i = 0; i < Number(process.env.BENCH_ROUTES ?? 0); i++) {
    Route.get(`/res${i}/{id}`, [UserController, 'show']);
}
Route.get('/hello', [HomeController, 'hello']);
Route.get('/users/{id}', [UserController, 'show']);
Route.post('/users', [UserController, 'store']);
