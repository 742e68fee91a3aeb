// template/api/routes/web.ts, compiled, cut to the benchmark's routes; BENCH_ROUTES other parametric routes
// are registered first, for the route-count scaling cases. BENCH_VALIDATE makes POST /users validate its body:
// `schema` with request.validate(newUser) in the handler, `declared` with .body(newUser) on the route and
// request.validate() in the handler; unset, it echoes request.all() as the other servers do. BENCH_THROTTLE puts the
// GET routes under a named rate limiter counted in the database, so high that every answer is a 200 (the server
// `fw-throttle`, paired with `fw`: the cost of the count). BENCH_CACHE adds GET /cached for the cache suite: `constant`
// returns the value, `remember` reads it through cache().remember on the store CACHE_STORE names.
import { Limit, RateLimiter, Route } from 'fw-runtime';
import { HomeController } from '../App/Controllers/HomeController.js';
import { UserController } from '../App/Controllers/UserController.js';
for (let i = 0; i < Number(process.env.BENCH_ROUTES ?? 0); i++) {
    Route.get(`/res${i}/{id}`, [UserController, 'show']);
}
const throttled = process.env.BENCH_THROTTLE ? ['throttle:bench'] : [];
if (process.env.BENCH_THROTTLE)
    RateLimiter.for('bench', (request) => Limit.perMinute(1_000_000_000).by(request.ip()));
Route.get('/hello', [HomeController, 'hello']).middleware(...throttled);
const show = Route.get('/users/{id}', [UserController, 'show']).middleware(...throttled);
// BENCH_RETURNS: the route declares its answer, which production serialises to the declared shape (fw-returns).
if (process.env.BENCH_RETURNS) {
    const { shownUser } = await import('../App/Controllers/shownUser.js');
    show.returns(200, shownUser);
}
if (process.env.BENCH_VALIDATE) {
    const { newUser, ValidatedUserController } = await import('../App/Controllers/ValidatedUserController.js');
    if (process.env.BENCH_VALIDATE === 'declared')
        Route.post('/users', [ValidatedUserController, 'storeDeclared']).body(newUser);
    else
        Route.post('/users', [ValidatedUserController, 'storeValidated']);
}
else {
    Route.post('/users', [UserController, 'store']);
}
if (process.env.BENCH_CACHE) {
    const { GreetingController } = await import('../App/Controllers/GreetingController.js');
    Route.get('/cached', [GreetingController, process.env.BENCH_CACHE === 'constant' ? 'constant' : 'remembered']);
}
