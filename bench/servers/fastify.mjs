// fastify 5 as its docs start an app: logger off, its own JSON body parser and serializer.
import Fastify from 'fastify'

const app = Fastify({ logger: false })
for (let i = 0; i < Number(process.env.BENCH_ROUTES ?? 0); i++) app.get(`/res${i}/:id`, async (request) => ({ id: request.params.id }))
app.get('/hello', async () => ({ message: 'Hello, World!' }))
app.get('/users/:id', async (request) => ({ user: { id: Number(request.params.id), name: `User ${request.params.id}` } }))
app.post('/users', async (request, reply) => reply.code(201).send({ message: 'User created', user: request.body }))
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' })
