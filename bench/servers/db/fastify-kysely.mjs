// fastify 5 with kysely on a pg pool: the same query layer as Fw, without Fw. Logger off.
import Fastify from 'fastify'
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import { fortunesPage, postsOfRows, queryCount, randomId, withComments } from './tfb.mjs'

const db = new Kysely({
  dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DB_POOL_MAX ?? 10) }) }),
})
const world = () => db.selectFrom('world').select(['id', 'randomNumber']).where('id', '=', randomId()).executeTakeFirstOrThrow()
const worlds = (count) => Promise.all(Array.from({ length: count }, world))

const app = Fastify({ logger: false })
app.get('/json', async () => ({ message: 'Hello, World!' }))
app.get('/plaintext', async (request, reply) => reply.type('text/plain').send('Hello, World!'))
app.get('/db', () => world())
app.get('/queries', (request) => worlds(queryCount(request.query.queries)))
app.get('/updates', async (request) => {
  const rows = await worlds(queryCount(request.query.queries))
  for (const row of rows) row.randomNumber = randomId()
  await Promise.all(rows.map((row) => db.updateTable('world').set({ randomNumber: row.randomNumber }).where('id', '=', row.id).execute()))
  return rows
})
app.get('/fortunes', async (request, reply) =>
  reply.type('text/html; charset=utf-8').send(fortunesPage(await db.selectFrom('fortune').select(['id', 'message']).execute())),
)
// The blog page by hand: the posts joined to their authors, then their comments in one more query.
app.get('/posts', async () => {
  const rows = await db
    .selectFrom('posts')
    .innerJoin('users', 'users.id', 'posts.author_id')
    .selectAll('posts')
    .select(['users.name as author_name', 'users.email as author_email'])
    .where('posts.published', '=', true)
    .orderBy('posts.id', 'desc')
    .limit(50)
    .execute()
  const posts = postsOfRows(rows)
  const comments = await db.selectFrom('comments').selectAll().where('post_id', 'in', posts.map((post) => post.id)).orderBy('id').execute()
  return withComments(posts, comments)
})
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' })
