// fastify 5 with pg, as its docs start an app: logger off, its own serializer.
import Fastify from 'fastify'
import { fortunes, latestPosts, updateWorlds, world, worlds } from './pg-queries.mjs'
import { fortunesPage, queryCount } from './tfb.mjs'

const app = Fastify({ logger: false })
app.get('/json', async () => ({ message: 'Hello, World!' }))
app.get('/plaintext', async (request, reply) => reply.type('text/plain').send('Hello, World!'))
app.get('/db', () => world())
app.get('/queries', (request) => worlds(queryCount(request.query.queries)))
app.get('/updates', (request) => updateWorlds(queryCount(request.query.queries)))
app.get('/fortunes', async (request, reply) => reply.type('text/html; charset=utf-8').send(fortunesPage(await fortunes())))
app.get('/posts', () => latestPosts())
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' })
