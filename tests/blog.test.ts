// The blog of the data layer's example, built in a new api app as a user builds it: models, migrations, factories
// and a seeder from the generators, filled in with the files of tests/fixtures/blog/. The same code then runs on
// SQLite and on a real PostgreSQL 15: fw migrate types the columns, fw db:seed makes 1,000 posts with factories,
// and the server answers byte-identical JSON on both. The app's own tests run on databases of their own, and the
// build answers as the development server does.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { sql, type Kysely } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDatabase } from '../runtime/src/database/createDatabase.js'
import { startPostgres, type TestPostgres } from '../runtime/test/support/postgres.js'
import { copyFixture } from './support/copyFixture.js'
import { installedApp, type InstalledApp } from './support/installedApp.js'
import { checkoutRoot } from './support/process.js'
import { buildAndStart, passesItsOwnChecks } from './support/shipped.js'

const FIXTURE = join(checkoutRoot, 'tests/fixtures/blog')

/** What the blog answers, asked as a reader would: pages, a post, a draft, an author, keys that are no post. */
const READS = ['/blog/posts', '/blog/posts?page=2', '/blog/posts?page=38', '/blog/posts/1', '/blog/posts/4', '/blog/authors/7', '/blog/posts/1001', '/blog/posts/abc', '/blog/posts/99999999999999999999', '/blog/authors/0']

/** Each read's status and body, as the server sent the bytes. */
async function reads(url: string): Promise<Record<string, string>> {
  const answers: Record<string, string> = {}
  for (const path of READS) {
    const response = await fetch(`${url}${path}`)
    answers[path] = `${response.status} ${await response.text()}`
  }
  return answers
}

/** A draft posted over HTTP, its answer with the times it was written at replaced (they differ from run to run). */
async function postDraft(url: string): Promise<string> {
  const response = await fetch(`${url}/blog/posts`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ author_id: 3, title: 'A draft', body: 'Not yet', published: false }),
  })
  const body = (await response.text()).replace(/"(created_at|updated_at)":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"/g, '"$1":"<now>"')
  return `${response.status} ${body}`
}

/** The rows of each table of the blog. */
async function rowCounts(db: Kysely<any>): Promise<Record<string, number>> {
  const counts: Record<string, number> = {}
  for (const table of ['users', 'posts', 'comments']) {
    counts[table] = Number((await sql<{ count: number }>`select count(*) as count from ${sql.table(table)}`.execute(db)).rows[0]!.count)
  }
  return counts
}

describe('the blog of the example, on SQLite and on PostgreSQL', () => {
  let app: InstalledApp
  let postgres: TestPostgres
  const answers: Record<'sqlite' | 'postgres', Record<string, string>> = { sqlite: {}, postgres: {} }
  const fw = (args: string[], env: Record<string, string> = {}) => app.runOk('npx', ['fw', ...args], { env })
  const onPostgres = () => ({ DATABASE_URL: postgres.url })

  beforeAll(async () => {
    app = await installedApp({ template: 'api' })
    postgres = await startPostgres()
  })
  afterAll(() => postgres?.stop())

  it('is made with the generators, and fw migrate types its columns from the migrations', async () => {
    for (const model of ['User', 'Post', 'Comment']) await fw(['make:model', model, '-m', '--factory'])
    await fw(['make:seeder', 'DatabaseSeeder'])
    copyFixture(app.dir, FIXTURE, 'blog')

    await fw(['migrate'])
    const schema = readFileSync(join(app.dir, 'database/schema.d.ts'), 'utf8')
    expect(schema).toMatch(/published: Generated<boolean>|published: boolean/)
    expect(schema).toMatch(/author_id: number/)
    await app.runOk('npx', ['tsc', '--noEmit'])
    await fw(['db:types', '--check'])
  })

  it('seeds 1,000 posts with factories in one transaction, and answers over HTTP on SQLite', async () => {
    expect((await fw(['db:seed'])).stdout).toMatch(/^Seeded {2}DatabaseSeeder {2}\(\d+ ms\)\n$/)
    const db = createDatabase(`sqlite:${join(app.dir, 'database/database.sqlite')}`)
    try {
      expect(await rowCounts(db)).toEqual({ users: 20, posts: 1000, comments: 3000 })
    } finally {
      await db.destroy()
    }
    const server = await app.start()
    try {
      answers.sqlite = await reads(server.url)
    } finally {
      await server.stop()
    }
    const first = JSON.parse(answers.sqlite['/blog/posts']!.slice(4)) as { data: { published: boolean; author: { id: number }; comments: { author: { id: number } }[] }[]; meta: { total: number; last_page: number } }
    expect(first.data).toHaveLength(20)
    expect(first.data.every((post) => post.published === true && post.comments.length === 3 && post.comments[0]!.author.id === (post.author.id % 20) + 1)).toBe(true)
    expect(first.meta.last_page).toBe(Math.ceil(first.meta.total / 20))
    expect(answers.sqlite['/blog/posts/1001']).toBe('404 {"error":"Not Found"}')
    expect(answers.sqlite['/blog/posts/abc']).toBe('404 {"error":"Not Found"}')
    expect(answers.sqlite['/blog/posts/99999999999999999999']).toBe('404 {"error":"Not Found"}')
  })

  it('answers byte-identical JSON on PostgreSQL 15 from the same code, typed the same by fw migrate', async () => {
    const sqliteSchema = readFileSync(join(app.dir, 'database/schema.d.ts'), 'utf8')
    await fw(['migrate'], onPostgres())
    expect(readFileSync(join(app.dir, 'database/schema.d.ts'), 'utf8')).toBe(sqliteSchema)
    expect((await fw(['db:seed'], onPostgres())).stdout).toMatch(/^Seeded {2}DatabaseSeeder/)
    const server = await app.start(undefined, onPostgres())
    try {
      answers.postgres = await reads(server.url)
      expect(answers.postgres).toEqual(answers.sqlite)
      expect(await postDraft(server.url)).toBe(
        '201 {"post":{"id":1001,"author_id":3,"title":"A draft","body":"Not yet","published":false,"created_at":"<now>","updated_at":"<now>"}}',
      )
    } finally {
      await server.stop()
    }
  })

  it('its own tests pass on databases of their own, leaving both development databases as they were', async () => {
    const tests = await passesItsOwnChecks(app)
    expect(tests).toMatch(/tests\/blog\.test\.ts \(4 tests\)/)

    const db = createDatabase(postgres.url)
    try {
      const before = await rowCounts(db)
      expect(before).toEqual({ users: 20, posts: 1001, comments: 3000 })
      const run = await app.runOk('npm', ['test'], { env: onPostgres() })
      expect(stripVTControlCharacters(run.stdout)).toMatch(/tests\/blog\.test\.ts \(4 tests\)/)
      expect(await rowCounts(db)).toEqual(before)
      const databases = await sql<{ datname: string }>`select datname from pg_database where datname like 'postgres%' order by datname`.execute(db)
      expect(databases.rows.map((row) => row.datname)).toEqual(['postgres', 'postgres_test'])
    } finally {
      await db.destroy()
    }
  })

  it('the build answers as the development server did, and stores a draft as PostgreSQL did', async () => {
    await buildAndStart(app, async ({ url, how }) => {
      expect(await reads(url), how).toEqual(answers.sqlite)
    })
    const server = await app.start()
    try {
      expect(await postDraft(server.url)).toBe(
        '201 {"post":{"id":1001,"author_id":3,"title":"A draft","body":"Not yet","published":false,"created_at":"<now>","updated_at":"<now>"}}',
      )
    } finally {
      await server.stop()
    }
  })
})
