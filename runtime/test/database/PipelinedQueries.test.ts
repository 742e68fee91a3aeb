import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { sql, type Kysely } from 'kysely'
import pg from 'pg'
import { createDatabase } from '../../src/database/createDatabase.js'
import type { DatabaseConfig } from '../../src/database/databaseConfig.js'
import { DatabaseUnavailableError } from '../../src/database/DatabaseUnavailableError.js'
import { startPostgres, type TestPostgres } from '../support/postgres.js'

let postgres: TestPostgres
beforeAll(async () => {
  postgres = await startPostgres()
}, 60_000)
afterAll(() => postgres?.stop())

let database: Kysely<unknown>
/** Connections lent by the pool (pg-pool's `connect`), shared ones counted once each time they are taken. */
let lent: ReturnType<typeof vi.spyOn>
afterEach(async () => {
  lent?.mockRestore()
  await database?.destroy()
})

/** A database on pg whatever DB_DRIVER says, its pool opened, with `lent` counting what the pool lends from here on. */
async function open(config: DatabaseConfig): Promise<Kysely<unknown>> {
  database = createDatabase(postgres.url, { driver: 'pg', ...config })
  await sql`select 1`.execute(database)
  lent = vi.spyOn(pg.Pool.prototype, 'connect')
  return database
}

/** A quick statement: `n` back, with the backend that ran it. */
const quick = (n: number) => sql<{ n: number; backend: number }>`select ${n}::int as n, pg_backend_pid() as backend`.execute(database)

/** Runs the quick statement until Fw counts it quick (named the second time, then three quick runs in a row). */
async function learnQuick(): Promise<void> {
  for (let i = 0; i < 5; i++) await quick(i)
  lent.mockClear()
}

async function terminateOthers(): Promise<void> {
  const admin = new pg.Client({ connectionString: postgres.url })
  await admin.connect()
  try {
    await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where backend_type = 'client backend' and pid <> pg_backend_pid()`)
  } finally {
    await admin.end()
  }
}

describe('DB_PIPELINE (the default on pg): quick plain queries pipelined on shared connections', () => {
  it('runs a hundred queries at once on the connections of the pool, several on each, every one answered with its own row', async () => {
    await open({ poolMax: 2 })
    await learnQuick()
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => quick(i)))
    expect(answers.map((answer) => answer.rows[0]!.n)).toEqual(Array.from({ length: 100 }, (_, i) => i))
    expect(new Set(answers.map((answer) => answer.rows[0]!.backend)).size).toBeLessThanOrEqual(2)
    // Each query of its own would have taken a connection from the pool a hundred times.
    expect(lent.mock.calls.length).toBeLessThanOrEqual(4)
  })

  it('takes a connection for each query with DB_PIPELINE=false', async () => {
    await open({ poolMax: 2, pipeline: false })
    await learnQuick()
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => quick(i)))
    expect(answers.map((answer) => answer.rows[0]!.n)).toEqual(Array.from({ length: 20 }, (_, i) => i))
    expect(lent.mock.calls.length).toBe(20)
  })

  it('fails only the query that failed among those pipelined with it', async () => {
    await open({ poolMax: 1 })
    const divide = (by: number) => sql<{ n: number }>`select 60 / ${by}::int as n`.execute(database)
    for (let i = 1; i <= 5; i++) await divide(i)
    lent.mockClear()
    const answers = await Promise.all(
      [1, 2, 0, 3, 0, 4].map((by) =>
        divide(by).then(
          (result) => result.rows[0]!.n,
          (error: Error) => error.message,
        ),
      ),
    )
    expect(answers).toEqual([60, 30, 'division by zero', 20, 'division by zero', 15])
    // All six on the one connection, which stays in the pool.
    expect(lent.mock.calls.length).toBe(1)
    expect((await divide(6)).rows).toEqual([{ n: 10 }])
  })

  it('gives a statement not known to be quick a connection of its own: a slow one holds back no other query', async () => {
    await open({ poolMax: 2 })
    await learnQuick()
    let slept = false
    const slow = sql`select pg_sleep(1)`.execute(database).then(() => (slept = true))
    await new Promise((resolve) => setTimeout(resolve, 100))
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => quick(i)))
    // Every quick one was answered on the other connection while the slow one still ran.
    expect(slept).toBe(false)
    expect(answers.map((answer) => answer.rows[0]!.n)).toEqual(Array.from({ length: 30 }, (_, i) => i))
    await slow
  })

  it('lets a transaction have a connection while quick queries keep the pool busy', async () => {
    await open({ poolMax: 2, connectionTimeoutMs: 3000 })
    await learnQuick()
    let loadDone = false
    const load = (async () => {
      for (let round = 0; round < 40; round++) await Promise.all(Array.from({ length: 50 }, (_, i) => quick(i)))
      loadDone = true
    })()
    await new Promise((resolve) => setTimeout(resolve, 20))
    const inside = await database.transaction().execute(async (trx) => (await sql<{ one: number }>`select 1 as one`.execute(trx)).rows)
    expect(inside).toEqual([{ one: 1 }])
    expect(loadDone).toBe(false)
    await load
  })

  it('runs again, prepared afresh, every pipelined query whose statement a migration made stale', async () => {
    await open({ poolMax: 1 })
    await sql`drop table if exists items`.execute(database)
    await sql`create table items (id serial primary key, name text not null)`.execute(database)
    await sql`insert into items (name) select 'item ' || n from generate_series(1, 20) as n`.execute(database)
    const item = (id: number) => sql<Record<string, unknown>>`select * from items where id = ${id}`.execute(database)
    for (let id = 1; id <= 5; id++) await item(id)
    await sql`alter table items add column stock integer not null default 7`.execute(database)
    const rows = await Promise.all(Array.from({ length: 20 }, (_, i) => item(i + 1).then((result) => result.rows[0])))
    expect(rows).toEqual(Array.from({ length: 20 }, (_, i) => ({ id: i + 1, name: `item ${i + 1}`, stock: 7 })))
    expect((await item(3)).rows).toEqual([{ id: 3, name: 'item 3', stock: 7 }])
  })

  it('answers 503 for the queries pipelined on a connection PostgreSQL ended, and runs the next ones on a new connection', async () => {
    await open({ poolMax: 1 })
    const sleepy = (n: number) => sql<{ n: number }>`select ${n}::int as n from pg_sleep(0.005)`.execute(database)
    for (let i = 0; i < 5; i++) await sleepy(i)
    const running = Array.from({ length: 40 }, (_, i) => sleepy(i).catch((error: unknown) => error))
    await new Promise((resolve) => setTimeout(resolve, 30))
    await terminateOthers()
    const settled = await Promise.all(running)
    const failed = settled.filter((answer) => answer instanceof Error)
    expect(failed.length).toBeGreaterThan(0)
    for (const error of failed) expect(error).toBeInstanceOf(DatabaseUnavailableError)
    const after = await Promise.all(Array.from({ length: 10 }, (_, i) => sleepy(i)))
    expect(after.map((answer) => answer.rows[0]!.n)).toEqual(Array.from({ length: 10 }, (_, i) => i))
  })
})
