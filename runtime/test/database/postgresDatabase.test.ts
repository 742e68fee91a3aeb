import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { sql, type Generated, type Kysely } from 'kysely'
import { createDatabase } from '../../src/database/createDatabase.js'
import { startPostgres, type TestPostgres } from '../support/postgres.js'

interface Tables {
  items: { id: Generated<number>; name: string; stock: number }
}

let postgres: TestPostgres
beforeAll(async () => {
  postgres = await startPostgres()
}, 60_000)
afterAll(() => postgres?.stop())

describe('postgresDatabase: plain queries straight to the pg pool', () => {
  let database: Kysely<Tables>
  /** How many times kysely's connection provider lent a connection (its path; the direct one does not use it). */
  let provided: number
  beforeEach(async () => {
    database = createDatabase<Tables>(postgres.url, { poolMax: 2 })
    const executor = database.getExecutor()
    const provide = executor.provideConnection.bind(executor)
    provided = 0
    executor.provideConnection = (consumer, options) => {
      provided++
      return provide(consumer, options)
    }
    await sql`drop table if exists items`.execute(database)
    await database.schema
      .createTable('items')
      .addColumn('id', 'serial', (column) => column.primaryKey())
      .addColumn('name', 'text', (column) => column.notNull().unique())
      .addColumn('stock', 'integer', (column) => column.notNull())
      .execute()
    // The first query opened the pool through kysely's driver; from here on plain queries go straight to it.
    provided = 0
    return () => database.destroy()
  })

  it('answers selects, inserts, updates and deletes as kysely does, without kysely lending a connection once the pool is open', async () => {
    const inserted = await database.insertInto('items').values([{ name: 'a', stock: 1 }, { name: 'b', stock: 2 }]).executeTakeFirst()
    expect(inserted.numInsertedOrUpdatedRows).toBe(2n)
    const rows = await database.selectFrom('items').select(['name', 'stock']).orderBy('name').execute()
    expect(rows).toEqual([{ name: 'a', stock: 1 }, { name: 'b', stock: 2 }])
    const updated = await database.updateTable('items').set({ stock: 5 }).where('name', '=', 'a').executeTakeFirst()
    expect(updated.numUpdatedRows).toBe(1n)
    expect(await database.selectFrom('items').select('stock').where('name', '=', 'a').executeTakeFirstOrThrow()).toEqual({ stock: 5 })
    const deleted = await database.deleteFrom('items').where('name', '=', 'b').executeTakeFirst()
    expect(deleted.numDeletedRows).toBe(1n)
    expect(provided).toBe(0)
  })

  it('rejects a wrong query with the database error (not a 503) and keeps the connection in the pool', async () => {
    await database.insertInto('items').values({ name: 'a', stock: 1 }).execute()
    const failed = await database
      .insertInto('items')
      .values({ name: 'a', stock: 2 })
      .execute()
      .catch((error: unknown) => error)
    expect(failed).toBeInstanceOf(Error)
    expect((failed as { code?: string }).code).toBe('23505')
    expect((failed as Error).name).not.toBe('DatabaseUnavailableError')
    // The pool of 2 still serves two queries at once: the failed query's connection came back.
    const both = await Promise.all([sql`select pg_sleep(0.05)`.execute(database), sql`select pg_sleep(0.05)`.execute(database)])
    expect(both).toHaveLength(2)
    expect(provided).toBe(0)
  })

  it('keeps kysely’s path for transactions: a rollback undoes what ran inside', async () => {
    await database
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto('items').values({ name: 'kept?', stock: 1 }).execute()
        throw new Error('undo')
      })
      .catch(() => undefined)
    expect(provided).toBe(1)
    expect(await database.selectFrom('items').selectAll().execute()).toEqual([])
    await database.transaction().execute((trx) => trx.insertInto('items').values({ name: 'kept', stock: 1 }).execute())
    expect(await database.selectFrom('items').select('name').execute()).toEqual([{ name: 'kept' }])
  })

  it('refuses queries after destroy() with kysely’s error', async () => {
    await database.selectFrom('items').selectAll().execute()
    await database.destroy()
    await expect(database.selectFrom('items').selectAll().execute()).rejects.toThrow(/destroyed/)
  })
})

describe('postgresDatabase: prepared statements for the queries the application repeats', () => {
  /** The statements the (one) connection of a pool of 1 keeps, by text, but for this question's own. */
  const kept = async (database: Kysely<Tables>) =>
    (await sql<{ statement: string }>`select statement from pg_prepared_statements where name like 'fw_%'`.execute(database)).rows
      .map((row) => row.statement)
      .filter((statement) => !statement.includes('pg_prepared_statements'))
  const byName = (database: Kysely<Tables>, name: string) => database.selectFrom('items').selectAll().where('name', '=', name).executeTakeFirst()

  let database: Kysely<Tables>
  beforeEach(async () => {
    database = createDatabase<Tables>(postgres.url, { poolMax: 1 })
    await sql`drop table if exists items`.execute(database)
    await sql`create table items (id serial primary key, name text not null unique, stock integer not null)`.execute(database)
    await database.insertInto('items').values({ name: 'a', stock: 1 }).execute()
    return () => database.destroy()
  })

  it('names a query the second time its text runs, and the connection keeps it', async () => {
    expect(await byName(database, 'a')).toEqual({ id: 1, name: 'a', stock: 1 })
    expect(await kept(database)).toEqual([])
    expect(await byName(database, 'a')).toEqual({ id: 1, name: 'a', stock: 1 })
    expect(await byName(database, 'b')).toBeUndefined()
    expect(await kept(database)).toEqual(['select * from "items" where "name" = $1'])
  })

  it('keeps nothing with prepare: false', async () => {
    const unprepared = createDatabase<Tables>(postgres.url, { poolMax: 1, prepare: false })
    try {
      for (let i = 0; i < 3; i++) expect(await byName(unprepared, 'a')).toEqual({ id: 1, name: 'a', stock: 1 })
      expect(await kept(unprepared)).toEqual([])
    } finally {
      await unprepared.destroy()
    }
  })

  it('runs a statement again when a migration changed its columns under the running pool ("cached plan must not change result type")', async () => {
    await byName(database, 'a')
    await byName(database, 'a')
    expect(await kept(database)).toHaveLength(1)
    await sql`alter table items add column note text`.execute(database)
    expect(await byName(database, 'a')).toEqual({ id: 1, name: 'a', stock: 1, note: null })
    await sql`alter table items drop column stock`.execute(database)
    expect(await byName(database, 'a')).toEqual({ id: 1, name: 'a', note: null })
    expect(await kept(database)).toEqual(['select * from "items" where "name" = $1'])
  })

  it('runs a statement again when the connection forgot it (DEALLOCATE ALL, as a pooler may run)', async () => {
    await byName(database, 'a')
    await byName(database, 'a')
    await sql`deallocate all`.execute(database)
    expect(await byName(database, 'a')).toEqual({ id: 1, name: 'a', stock: 1 })
    expect(await kept(database)).toHaveLength(1)
  })

  it('still answers a wrong query with its own error', async () => {
    const missing = () => sql`select nothing from items`.execute(database)
    for (let i = 0; i < 3; i++) await expect(missing()).rejects.toThrow(/column "nothing" does not exist/)
    expect(await byName(database, 'a')).toEqual({ id: 1, name: 'a', stock: 1 })
  })
})
