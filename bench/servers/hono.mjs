// hono 4 (its default SmartRouter) on @hono/node-server.
import { serve } from '@hono/node-server'
import { Hono } from 'hono'

const app = new Hono()
for (let i = 0; i < Number(process.env.BENCH_ROUTES ?? 0); i++) app.get(`/res${i}/:id`, (c) => c.json({ id: c.req.param('id') }))
app.get('/hello', (c) => c.json({ message: 'Hello, World!' }))
app.get('/users/:id', (c) => c.json({ user: { id: Number(c.req.param('id')), name: `User ${c.req.param('id')}` } }))
app.post('/users', async (c) => c.json({ message: 'User created', user: await c.req.json() }, 201))
serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: '127.0.0.1' })
