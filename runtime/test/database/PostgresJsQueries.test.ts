import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { sql, type Generated, type Kysely } from 'kysely'
import { createDatabase } from '../../src/database/createDatabase.js'
import { DatabaseUnavailableError } from '../../src/database/DatabaseUnavailableError.js'
import { startPostgres, type TestPostgres } from '../support/postgres.js'

interface Tables {
  items: { id: Generated<number>; name: string; stock: number }
}

let postgres: TestPostgres
beforeAll(async () => {
  postgres = await startPostgres()
}, 60_000)
afterAll(() => postgres?.stop())

/** The connections of the test's server other than the asking one, by the library that opened them. */
async function sessions(): Promise<Record<string, number>> {
  const admin = createDatabase(postgres.url, { driver: 'pg' })
  try {
    const { rows } = await sql<{ client: string; n: number }>`select application_name as client, count(*)::int as n from pg_stat_activity
      where backend_type = 'client backend' and pid <> pg_backend_pid() group by 1`.execute(admin)
    return Object.fromEntries(rows.map((row) => [row.client || 'pg', row.n]))
  } finally {
    await admin.destroy()
  }
}

async function terminateOthers(): Promise<void> {
  const admin = createDatabase(postgres.url, { driver: 'pg' })
  try {
    await sql`select pg_terminate_backend(pid) from pg_stat_activity where backend_type = 'client backend' and pid <> pg_backend_pid()`.execute(admin)
  } finally {
    await admin.destroy()
  }
}

describe('DB_DRIVER=postgres: plain queries on postgres.js', () => {
  let database: Kysely<Tables>
  let logged: string[]
  beforeEach(async () => {
    database = createDatabase<Tables>(postgres.url, { driver: 'postgres', poolMax: 1, connectionTimeoutMs: 300 })
    await sql`drop table if exists items`.execute(database)
    await database.schema
      .createTable('items')
      .addColumn('id', 'serial', (column) => column.primaryKey())
      .addColumn('name', 'text', (column) => column.notNull().unique())
      .addColumn('stock', 'integer', (column) => column.notNull())
      .execute()
    logged = []
    const error = console.error
    console.error = (...args: unknown[]) => void logged.push(args.map(String).join(' '))
    return async () => {
      console.error = error
      await database.destroy()
    }
  })

  it('runs them on a postgres.js connection that keeps each statement prepared; transactions stay on pg', async () => {
    await database.insertInto('items').values({ name: 'a', stock: 1 }).execute()
    for (let i = 0; i < 2; i++) expect(await database.selectFrom('items').select('stock').where('name', '=', 'a').execute()).toEqual([{ stock: 1 }])
    const { rows } = await sql<{ client: string }>`select application_name as client from pg_stat_activity where pid = pg_backend_pid()`.execute(database)
    expect(rows).toEqual([{ client: 'postgres.js' }])
    const prepared = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(database)
    expect(prepared.rows.map((row) => row.statement)).toContain('select "stock" from "items" where "name" = $1')

    await database
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto('items').values({ name: 'b', stock: 2 }).execute()
        throw new Error('rolled back')
      })
      .catch(() => {})
    await database.transaction().execute((trx) => trx.insertInto('items').values({ name: 'c', stock: 3 }).execute())
    expect(await database.selectFrom('items').select('name').orderBy('name').execute()).toEqual([{ name: 'a' }, { name: 'c' }])
    expect(await sessions()).toEqual({ 'postgres.js': 1, pg: 1 })
  })

  it('runs a prepared statement again after a migration changed the columns it returns', async () => {
    await database.insertInto('items').values({ name: 'a', stock: 1 }).execute()
    const everything = () => database.selectFrom('items').selectAll().execute()
    expect(await everything()).toEqual([{ id: 1, name: 'a', stock: 1 }])
    await database.schema.alterTable('items').addColumn('note', 'text').execute()
    expect(await everything()).toEqual([{ id: 1, name: 'a', stock: 1, note: null }])
  })

  it('runs a prepared statement again after the connection forgot it (DEALLOCATE ALL, as a pooler may run)', async () => {
    await database.insertInto('items').values({ name: 'a', stock: 1 }).execute()
    const stock = () => database.selectFrom('items').select('stock').where('name', '=', 'a').execute()
    for (let i = 0; i < 2; i++) expect(await stock()).toEqual([{ stock: 1 }])
    await sql`deallocate all`.execute(database)
    expect((await sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements`.execute(database)).rows).toEqual([{ n: 0 }])
    expect(await stock()).toEqual([{ stock: 1 }])
  })

  it('fails with a 503 when no connection took the query in time, and the query before it answers', async () => {
    const slow = sql<{ slept: string }>`select pg_sleep(${1})::text as slept`.execute(database)
    const started = Date.now()
    const waiting = await sql`select 1 as one`.execute(database).catch((error: unknown) => error)
    expect(waiting).toBeInstanceOf(DatabaseUnavailableError)
    expect(Date.now() - started).toBeLessThan(900)
    expect(logged.join('\n')).toMatch(/no PostgreSQL connection took the query within 300 ms/)
    expect((await slow).rows).toEqual([{ slept: '' }])
    expect((await sql<{ one: number }>`select 1 as one`.execute(database)).rows).toEqual([{ one: 1 }])
  })

  it('fails with a 503 when PostgreSQL ends the session under the query, and answers on a new connection after', async () => {
    const slow = sql`select pg_sleep(${5})`.execute(database).catch((error: unknown) => error)
    await new Promise((resolve) => setTimeout(resolve, 300))
    await terminateOthers()
    expect(await slow).toBeInstanceOf(DatabaseUnavailableError)
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect((await sql<{ one: number }>`select 1 as one`.execute(database)).rows).toEqual([{ one: 1 }])
  })

  it('answers a query on the connection opened after PostgreSQL ended an idle one', async () => {
    expect((await sql<{ one: number }>`select 1 as one`.execute(database)).rows).toEqual([{ one: 1 }])
    await terminateOthers()
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect((await sql<{ one: number }>`select 1 as one`.execute(database)).rows).toEqual([{ one: 1 }])
  })

  it('fails with a 503 while PostgreSQL is down and answers once it is back, without a restart', async () => {
    expect((await sql<{ one: number }>`select 1 as one`.execute(database)).rows).toEqual([{ one: 1 }])
    postgres.pause()
    try {
      expect(await sql`select 1 as one`.execute(database).catch((error: unknown) => error)).toBeInstanceOf(DatabaseUnavailableError)
    } finally {
      postgres.resume()
    }
    expect((await sql<{ one: number }>`select 1 as one`.execute(database)).rows).toEqual([{ one: 1 }])
  }, 30_000)

  it('ends its pool on destroy() when no transaction opened pg', async () => {
    expect(await database.selectFrom('items').select('name').execute()).toEqual([])
    expect(await sessions()).toEqual({ 'postgres.js': 1 })
    await database.destroy()
    expect(await sessions()).toEqual({})
    await expect(database.selectFrom('items').selectAll().execute()).rejects.toThrow(/destroyed/)
  })

  it('ends both pools on destroy()', async () => {
    await database.transaction().execute((trx) => trx.insertInto('items').values({ name: 'a', stock: 1 }).execute())
    expect(await database.selectFrom('items').select('name').execute()).toEqual([{ name: 'a' }])
    expect(await sessions()).toEqual({ 'postgres.js': 1, pg: 1 })
    await database.destroy()
    expect(await sessions()).toEqual({})
  })
})
