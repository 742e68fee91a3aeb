// The application's routes file, as `tsc` would emit routes/web.ts.
import { Response, Route } from 'fw-runtime'

for (let i = 0; i < Number(process.env.BENCH_ROUTES ?? 0); i++) {
  Route.get(`/res${i}/{id}`, (request, id) => Response.json({ id }))
}

Route.get('/hello', () => Response.json({ message: 'Hello, World!' }))

Route.get('/users/{id}', (request, id) => Response.json({ user: { id, name: `User ${id}` } }))

Route.post('/users', (request) => Response.json({ message: 'User created', user: request.all() }, 201))
