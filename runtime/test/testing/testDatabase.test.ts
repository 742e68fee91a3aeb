import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDatabase } from '../../src/database/createDatabase.js'
import { refreshDatabase } from '../../src/testing/testDatabase.js'
import { cleanEnv, createFwApp, type FwApp } from '../support/fwApp.js'
import { startPostgres, type TestPostgres } from '../support/postgres.js'

const NOTES = `import type { Kysely } from 'fw-runtime'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('notes').addColumn('id', 'integer', (column) => column.primaryKey()).addColumn('title', 'text').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('notes').execute()
}
`

/**
 * A test run as vitest makes it, in the app's folder with the built package: testDatabase() as the globalSetup, then
 * two workers (VITEST_POOL_ID 1 and 2) each with workerDatabase(), rows written in one, refreshDatabase(), and the
 * teardown. Prints what it saw as JSON.
 */
const RUN = `import { existsSync } from 'node:fs'
import { Container, createDatabase, db, sql } from 'fw-runtime'
import { refreshDatabase, testDatabase, workerDatabase } from 'fw-runtime/testing'

const seen = {}
const titles = async (url) => {
  const database = createDatabase(url)
  try {
    return (await sql\`select title from notes order by title\`.execute(database)).rows.map((row) => row.title)
  } finally {
    await database.destroy()
  }
}
const teardown = await testDatabase()
seen.template = process.env.FW_TEST_DATABASE_URL
for (const worker of ['1', '2']) {
  process.env.VITEST_POOL_ID = worker
  await workerDatabase()
  seen['worker' + worker] = process.env.DATABASE_URL
}
// Worker 2 writes; worker 1's copy and the template stay empty.
await sql\`insert into notes (id, title) values (1, 'written'), (2, 'by worker 2')\`.execute(db())
seen.beforeRefresh = { worker1: await titles(seen.worker1), worker2: await titles(seen.worker2), template: await titles(seen.template) }
// On PostgreSQL, a schema of another tool (pg-boss's, made by a dispatch in a test) is not the app's to empty.
const postgres = !seen.worker2.startsWith('sqlite:')
if (postgres) {
  await sql\`create schema pgboss_like\`.execute(db())
  await sql\`create table pgboss_like.job (id integer)\`.execute(db())
  await sql\`insert into pgboss_like.job values (1)\`.execute(db())
}
await refreshDatabase()
seen.afterRefresh = await titles(seen.worker2)
if (postgres) seen.otherSchema = (await sql\`select id from pgboss_like.job\`.execute(db())).rows.map((row) => row.id)
await sql\`insert into notes (id, title) values (1, 'the key starts again')\`.execute(db())
seen.again = await titles(seen.worker2)
await db().destroy()
Container.setInstance(undefined)
await teardown()
seen.sqliteRemoved = seen.template.startsWith('sqlite:') ? !existsSync(seen.template.slice(7)) : undefined
console.log(JSON.stringify(seen))
`

interface Seen {
  template: string
  worker1: string
  worker2: string
  beforeRefresh: { worker1: string[]; worker2: string[]; template: string[] }
  afterRefresh: string[]
  again: string[]
  sqliteRemoved?: boolean
  otherSchema?: number[]
}

let postgres: TestPostgres | undefined
afterAll(() => postgres?.stop())

describe('the test database (fw-runtime/testing)', () => {
  let app: FwApp
  beforeAll(() => {
    app = createFwApp()
    app.write('database/migrations/20250101000000_create_notes_table.ts', NOTES)
    app.write('run.mjs', RUN)
  })
  afterAll(() => app.remove())

  const run = (env: NodeJS.ProcessEnv = {}) => spawnSync(process.execPath, ['run.mjs'], { cwd: app.dir, env: cleanEnv(env), encoding: 'utf8' })
  const seen = (env: NodeJS.ProcessEnv = {}): Seen => {
    const result = run(env)
    expect(result.stderr).toBe('')
    return JSON.parse(result.stdout) as Seen
  }

  it('on SQLite: a migrated file per run, a copy per worker, emptied by refreshDatabase; the development database never opened', () => {
    app.write('.env', 'DATABASE_URL=sqlite:database/development.sqlite\n')
    const { template, worker1, worker2, beforeRefresh, afterRefresh, again, sqliteRemoved } = seen()
    expect(template).toMatch(/^sqlite:.*fw-test-database-[^/]+\/database\.sqlite$/)
    expect([worker1, worker2]).toEqual([template.replace('database.sqlite', 'worker-1.sqlite'), template.replace('database.sqlite', 'worker-2.sqlite')])
    expect(beforeRefresh).toEqual({ worker1: [], worker2: ['by worker 2', 'written'], template: [] })
    expect(afterRefresh).toEqual([])
    expect(again).toEqual(['the key starts again'])
    expect(sqliteRemoved).toBe(true)
    expect(existsSync(`${app.dir}/database/development.sqlite`)).toBe(false)
  })

  it('on PostgreSQL: <name>_test beside the development database, migrated afresh, a copy per worker dropped at the end', async () => {
    postgres ??= await startPostgres()
    // The development database, blog, beside which the tests get blog_test.
    const server = createDatabase(postgres.url)
    await sql`create database blog`.execute(server)
    await server.destroy()
    const name = 'blog'
    const development = postgres.url.replace(/\/postgres$/, `/${name}`)
    app.write('.env', `DATABASE_URL=${development}\n`)
    const first = seen()
    expect(first.template).toBe(development.replace(`/${name}`, `/${name}_test`))
    expect([first.worker1, first.worker2]).toEqual([first.template.replace(/_test$/, '_test_1'), first.template.replace(/_test$/, '_test_2')])
    expect(first.beforeRefresh).toEqual({ worker1: [], worker2: ['by worker 2', 'written'], template: [] })
    expect(first.afterRefresh).toEqual([])
    expect(first.otherSchema).toEqual([1])
    expect(first.again).toEqual(['the key starts again'])

    // A second run finds <name>_test there, migrates it afresh, and the first run's copies are gone.
    const second = seen()
    expect(second.beforeRefresh.worker1).toEqual([])
    const databases = spawnSync(process.execPath, ['--input-type=module', '-e', LIST_DATABASES, development], { encoding: 'utf8', cwd: app.dir, env: cleanEnv() })
    expect(JSON.parse(databases.stdout)).toEqual([name, `${name}_test`])
  })

  it('refuses a TEST_DATABASE_URL that is the development database, and says why a migration failed', async () => {
    postgres ??= await startPostgres()
    app.write('.env', `DATABASE_URL=${postgres.url}\n`)
    const same = run({ TEST_DATABASE_URL: postgres.url })
    expect(same.stderr).toContain('TEST_DATABASE_URL is the development DATABASE_URL: the tests would empty it')

    app.write('.env', '')
    app.write('database/migrations/20250102000000_broken.ts', "export async function up(): Promise<void> {\n  throw new Error('column exploded')\n}\n")
    const broken = run()
    expect(broken.status).not.toBe(0)
    expect(broken.stderr).toContain('The test database could not be migrated (fw migrate):')
    expect(broken.stderr).toContain('column exploded')
  })
})

describe('refreshDatabase()', () => {
  it("refuses any database but the tests' own, so that it can never empty a development database", async () => {
    const saved = { template: process.env.FW_TEST_DATABASE_URL, url: process.env.DATABASE_URL }
    try {
      for (const [template, url] of [
        [undefined, 'sqlite:database/database.sqlite'],
        ['sqlite:/tmp/fw-test-database-x/database.sqlite', 'sqlite:database/database.sqlite'],
        ['postgres://app@127.0.0.1:5432/blog_test', 'postgres://app@127.0.0.1:5432/blog'],
        ['postgres://app@127.0.0.1:5432/blog_test', 'postgres://app@127.0.0.1:5432/blog_test_x'],
      ]) {
        if (template === undefined) delete process.env.FW_TEST_DATABASE_URL
        else process.env.FW_TEST_DATABASE_URL = template
        process.env.DATABASE_URL = url
        await expect(refreshDatabase()).rejects.toThrow("refreshDatabase() empties only the tests' own database, and DATABASE_URL is not one")
      }
    } finally {
      for (const [key, value] of [['FW_TEST_DATABASE_URL', saved.template], ['DATABASE_URL', saved.url]] as const) {
        if (value === undefined) delete process.env[key]
        else process.env[key] = value
      }
    }
  })
})

/** The databases of a PostgreSQL server other than its own, sorted, as JSON. */
const LIST_DATABASES = `
const { createDatabase, sql } = await import('fw-runtime')
const server = createDatabase(process.argv[1])
const { rows } = await sql\`select datname from pg_database where datname not in ('postgres', 'template0', 'template1') order by datname\`.execute(server)
await server.destroy()
console.log(JSON.stringify(rows.map((row) => row.datname)))
`
