import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { NoResultError, sql, type ColumnType, type Generated, type Kysely } from 'kysely'
import { id } from '../../src/database/columns.js'
import { compileQuery } from '../../src/database/compileQuery.js'
import { createDatabase } from '../../src/database/createDatabase.js'
import { startPostgres, type TestPostgres } from '../support/postgres.js'

interface TestTables {
  items: { id: Generated<number>; name: string; stock: number; added_at: ColumnType<Date, Date | string, Date | string> }
}

/** How many times each query's builder ran: once per database and number of arguments. */
const built = { byName: 0, insert: 0, restock: 0, cheapest: 0 }

const itemByName = compileQuery((db: Kysely<TestTables>, name: string) => {
  built.byName++
  return db.selectFrom('items').select(['id', 'name', 'stock', 'added_at']).where('name', '=', name)
})
const insertItem = compileQuery((db: Kysely<TestTables>, name: string, stock: number, addedAt: Date) => {
  built.insert++
  return db.insertInto('items').values({ name, stock, added_at: addedAt }).returning('id')
})
const restock = compileQuery((db: Kysely<TestTables>, stock: number, name: string) => {
  built.restock++
  return db.updateTable('items').set({ stock }).where('name', '=', name)
})
/** A value written in the builder stays as it is; the argument goes to `limit`. */
const cheapest = compileQuery((db: Kysely<TestTables>, count: number) => {
  built.cheapest++
  return db.selectFrom('items').select('name').where('stock', '>', 0).orderBy('stock').orderBy('name').limit(count)
})

function compileQueryCases(open: () => Kysely<TestTables>) {
  let database: Kysely<TestTables>
  beforeEach(async () => {
    database = open()
    await database.schema.dropTable('items').ifExists().execute()
    await database.schema
      .createTable('items')
      .$call(id(database))
      .addColumn('name', 'text', (column) => column.notNull().unique())
      .addColumn('stock', 'integer', (column) => column.notNull())
      .addColumn('added_at', 'timestamp', (column) => column.notNull())
      .execute()
    for (const key of Object.keys(built) as (keyof typeof built)[]) built[key] = 0
    return () => database.destroy()
  })

  it('builds each query once for a database and runs it with each call’s values', async () => {
    const addedAt = new Date('2026-11-26T10:00:00.000Z')
    for (const [name, stock] of [['apple', 3], ['pear', 0], ['plum', 5]] as const) {
      await database.insertInto('items').values({ id: stock + 1, name, stock, added_at: addedAt }).execute()
    }
    expect(await itemByName.executeTakeFirst(database, 'pear')).toEqual({ id: 1, name: 'pear', stock: 0, added_at: addedAt })
    expect(await itemByName.execute(database, 'plum')).toEqual([{ id: 6, name: 'plum', stock: 5, added_at: addedAt }])
    expect(await itemByName.executeTakeFirst(database, 'fig')).toBeUndefined()
    await expect(itemByName.executeTakeFirstOrThrow(database, 'fig')).rejects.toBeInstanceOf(NoResultError)
    expect(built.byName).toBe(1)

    expect(await cheapest.execute(database, 1)).toEqual([{ name: 'apple' }])
    expect(await cheapest.execute(database, 5)).toEqual([{ name: 'apple' }, { name: 'plum' }])
    expect(built.cheapest).toBe(1)
  })

  it('writes with its arguments, and reports the rows an update changed', async () => {
    const addedAt = new Date('2026-11-26T11:30:00.000Z')
    await database.insertInto('items').values({ id: 1, name: 'apple', stock: 1, added_at: addedAt }).execute()
    expect((await restock.executeQuery(database, 9, 'apple')).numAffectedRows).toBe(1n)
    expect((await restock.executeQuery(database, 9, 'fig')).numAffectedRows).toBe(0n)
    expect(await itemByName.executeTakeFirstOrThrow(database, 'apple')).toMatchObject({ stock: 9 })
    expect(built.restock).toBe(1)
  })

  it('is built again in a transaction, which rolls back with it', async () => {
    const addedAt = new Date('2026-11-26T12:00:00.000Z')
    await database.insertInto('items').values({ id: 1, name: 'apple', stock: 1, added_at: addedAt }).execute()
    await database
      .transaction()
      .execute(async (trx) => {
        await restock.executeQuery(trx, 0, 'apple')
        expect(await itemByName.executeTakeFirstOrThrow(trx, 'apple')).toMatchObject({ stock: 0 })
        throw new Error('roll back')
      })
      .catch(() => {})
    expect(await itemByName.executeTakeFirstOrThrow(database, 'apple')).toMatchObject({ stock: 1 })
  })

  it('refuses an argument that decides how the query is built, naming it', async () => {
    const chosen = compileQuery((db: Kysely<TestTables>, name: string, newest: boolean) =>
      db.selectFrom('items').select('name').where('name', '=', name).orderBy('id', newest ? 'desc' : 'asc'),
    )
    await expect(chosen.execute(database, 'apple', true)).rejects.toThrow(/compileQuery: argument 2 is not a value of the query/)
    const raw = compileQuery((db: Kysely<TestTables>, column: string) => db.selectFrom('items').select(sql.raw<string>(column).as('picked')))
    await expect(raw.execute(database, 'name')).rejects.toThrow(/compileQuery: argument 1 is not a value of the query/)
    // A list of a fixed length takes an argument as one of its values.
    await database.insertInto('items').values({ id: 1, name: 'pear', stock: 1, added_at: new Date() }).execute()
    const list = compileQuery((db: Kysely<TestTables>, name: string) => db.selectFrom('items').select('name').where('name', 'in', [name, 'fig']))
    expect(await list.execute(database, 'pear')).toEqual([{ name: 'pear' }])
    expect(await list.execute(database, 'plum')).toEqual([])
  })

  it('inserts and returns, with a Date argument written as pg or SQLite takes it', async () => {
    const addedAt = new Date('2026-11-26T13:45:00.000Z')
    const [first] = await insertItem.execute(database, 'fig', 2, addedAt)
    const [second] = await insertItem.execute(database, 'kiwi', 4, addedAt)
    expect(second!.id).toBe(first!.id + 1)
    expect(await itemByName.executeTakeFirstOrThrow(database, 'kiwi')).toEqual({ id: second!.id, name: 'kiwi', stock: 4, added_at: addedAt })
    expect(built.insert).toBe(1)
  })
}

describe('compileQuery on SQLite', () => {
  let folder: string
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'fw-compile-query-'))
  })
  afterAll(() => rmSync(folder, { recursive: true, force: true }))

  compileQueryCases(() => createDatabase<TestTables>('sqlite:items.sqlite', folder))
})

describe('compileQuery on PostgreSQL', () => {
  let server: TestPostgres
  beforeAll(async () => {
    server = await startPostgres()
  }, 60_000)
  afterAll(() => server?.stop())

  compileQueryCases(() => createDatabase<TestTables>(server.url))
})
