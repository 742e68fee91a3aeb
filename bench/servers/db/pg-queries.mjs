// The db suite's queries on a plain pg pool of DB_POOL_MAX connections, shared by the servers that use pg
// directly. Named statements: pg prepares each once per connection, as TechEmpower's rules allow.
import pg from 'pg'
import { postsOfRows, randomId, withComments } from './tfb.mjs'

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DB_POOL_MAX ?? 10) })

const WORLD_BY_ID = { name: 'world-by-id', text: 'SELECT id, "randomNumber" FROM world WHERE id = $1' }
const UPDATE_WORLD = { name: 'update-world', text: 'UPDATE world SET "randomNumber" = $1 WHERE id = $2' }
const ALL_FORTUNES = { name: 'all-fortunes', text: 'SELECT id, message FROM fortune' }

/** One random row of `world`. */
export const world = async () => (await pool.query({ ...WORLD_BY_ID, values: [randomId()] })).rows[0]

/** `count` random rows of `world`, one query each, in parallel over the pool. */
export const worlds = (count) => Promise.all(Array.from({ length: count }, world))

/** `count` random rows of `world`, each read, given a new random number and written back (one update each). */
export async function updateWorlds(count) {
  const rows = await worlds(count)
  for (const row of rows) row.randomNumber = randomId()
  await Promise.all(rows.map((row) => pool.query({ ...UPDATE_WORLD, values: [row.randomNumber, row.id] })))
  return rows
}

/** Every row of `fortune`. */
export const fortunes = async () => (await pool.query(ALL_FORTUNES)).rows

const LATEST_POSTS = {
  name: 'latest-posts',
  text: `SELECT p.*, u.name AS author_name, u.email AS author_email FROM posts p JOIN users u ON u.id = p.author_id
    WHERE p.published ORDER BY p.id DESC LIMIT 50`,
}
const COMMENTS_OF = { name: 'comments-of', text: 'SELECT * FROM comments WHERE post_id = ANY($1::int[]) ORDER BY id' }

/** The 50 latest published posts, each with its author (joined) and its comments (one more query). */
export async function latestPosts() {
  const posts = postsOfRows((await pool.query(LATEST_POSTS)).rows)
  return withComments(posts, (await pool.query({ ...COMMENTS_OF, values: [posts.map((post) => post.id)] })).rows)
}
