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
