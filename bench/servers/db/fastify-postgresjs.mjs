// fastify 5 with postgres.js, as its docs start an app: named statements kept per connection and the queries a
// connection is given pipelined (sent without waiting for the answers before), both postgres.js's defaults.
import Fastify from 'fastify'
import postgres from 'postgres'
import { fortunesPage, postsOfRows, queryCount, randomId, withComments } from './tfb.mjs'

const sql = postgres(process.env.DATABASE_URL, { max: Number(process.env.DB_POOL_MAX ?? 10) })

const world = async () => (await sql`SELECT id, "randomNumber" FROM world WHERE id = ${randomId()}`)[0]
const worlds = (count) => Promise.all(Array.from({ length: count }, world))

async function updateWorlds(count) {
  const rows = await worlds(count)
  for (const row of rows) row.randomNumber = randomId()
  await Promise.all(rows.map((row) => sql`UPDATE world SET "randomNumber" = ${row.randomNumber} WHERE id = ${row.id}`))
  return rows
}

async function latestPosts() {
  const rows = await sql`SELECT p.*, u.name AS author_name, u.email AS author_email FROM posts p JOIN users u ON u.id = p.author_id
    WHERE p.published ORDER BY p.id DESC LIMIT 50`
  const posts = postsOfRows(rows)
  return withComments(posts, await sql`SELECT * FROM comments WHERE post_id = ANY(${posts.map((post) => post.id)}::int[]) ORDER BY id`)
}

const app = Fastify({ logger: false })
app.get('/json', async () => ({ message: 'Hello, World!' }))
app.get('/plaintext', async (request, reply) => reply.type('text/plain').send('Hello, World!'))
app.get('/db', () => world())
app.get('/queries', (request) => worlds(queryCount(request.query.queries)))
app.get('/updates', (request) => updateWorlds(queryCount(request.query.queries)))
app.get('/fortunes', async (request, reply) => reply.type('text/html; charset=utf-8').send(fortunesPage([...(await sql`SELECT id, message FROM fortune`)])))
app.get('/posts', () => latestPosts())
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' })
