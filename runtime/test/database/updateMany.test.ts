import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { sql, type ColumnType, type Generated, type Kysely } from 'kysely'
import { Container } from '../../src/container/Container.js'
import { id, timestamps } from '../../src/database/columns.js'
import { createDatabase } from '../../src/database/createDatabase.js'
import { softDeletes } from '../../src/database/softDeletes.js'
import { Model } from '../../src/database/Model.js'
import { updateMany } from '../../src/database/updateMany.js'
import { startPostgres, type TestPostgres } from '../support/postgres.js'

interface TestTables {
  world: { id: number; randomNumber: number }
  events: { id: Generated<number>; name: string; starts_at: ColumnType<Date, Date | string, Date | string>; big: ColumnType<number | string, bigint | number, bigint | number>; open: boolean }
  notes: {
    id: Generated<number>
    title: string
    stars: number
    author_id: number
    created_at: ColumnType<Date, string | Date | undefined, string | Date>
    updated_at: ColumnType<Date, string | Date | undefined, string | Date>
    deleted_at: ColumnType<Date | null, string | Date | null | undefined, string | Date | null>
  }
}

class Note extends Model<'notes', TestTables, { fillable: ['title', 'stars']; softDeletes: true }>('notes', { fillable: ['title', 'stars'], softDeletes: true }) {}

function updateManyCases(open: () => Kysely<TestTables>) {
  let database: Kysely<TestTables>
  beforeEach(async () => {
    database = open()
    for (const table of ['world', 'events', 'notes']) await database.schema.dropTable(table).ifExists().execute()
    await database.schema
      .createTable('world')
      .addColumn('id', 'integer', (column) => column.primaryKey())
      .addColumn('randomNumber', 'integer', (column) => column.notNull())
      .execute()
    await database.insertInto('world').values(Array.from({ length: 30 }, (_, i) => ({ id: i + 1, randomNumber: 0 }))).execute()
    await database.schema
      .createTable('events')
      .$call(id(database))
      .addColumn('name', 'text', (column) => column.notNull())
      .addColumn('starts_at', 'timestamp', (column) => column.notNull())
      .addColumn('big', 'bigint', (column) => column.notNull())
      .addColumn('open', 'boolean', (column) => column.notNull())
      .execute()
    await database.schema
      .createTable('notes')
      .$call(id(database))
      .addColumn('title', 'text', (column) => column.notNull())
      .addColumn('stars', 'integer', (column) => column.notNull())
      .addColumn('author_id', 'integer', (column) => column.notNull())
      .$call(timestamps())
      .$call(softDeletes())
      .execute()
    Container.setInstance(new Container().instance('db', database))
    return async () => {
      Container.setInstance(undefined)
      await database.destroy()
    }
  })

  const numbers = async () => (await database.selectFrom('world').select(['id', 'randomNumber']).orderBy('id').execute()).map((row) => row.randomNumber)

  it('writes each row its own values in one statement, by id, and counts the rows changed', async () => {
    const rows = Array.from({ length: 20 }, (_, i) => ({ id: i + 1, randomNumber: 100 + i }))
    expect(await updateMany(database, 'world', rows)).toBe(20)
    expect(await numbers()).toEqual([...rows.map((row) => row.randomNumber), ...Array(10).fill(0)])
    // The same text for another number of rows (prepared once on PostgreSQL); a key with no row changes nothing.
    expect(await updateMany(database, 'world', [{ id: 25, randomNumber: 7 }, { id: 999, randomNumber: 8 }])).toBe(1)
    expect((await numbers())[24]).toBe(7)
    expect(await updateMany(database, 'world', [])).toBe(0)
  })

  it('reads dates, bigints and booleans as the column holds them', async () => {
    const starts = new Date('2026-01-02T03:04:05.678Z')
    await database.insertInto('events').values([{ name: 'a', starts_at: starts, big: 1, open: false }, { name: 'b', starts_at: starts, big: 2, open: false }]).execute()
    const later = new Date('2027-06-07T08:09:10.123Z')
    expect(await updateMany(database, 'events', [{ id: 1, starts_at: later, big: 1_099_511_627_776n, open: true }, { id: 2, starts_at: later, big: 5, open: true }])).toBe(2)
    const events = await database.selectFrom('events').select(['id', 'starts_at', 'big', 'open']).orderBy('id').execute()
    expect(events.map((event) => [event.starts_at.toISOString(), event.big, Boolean(event.open)])).toEqual([
      ['2027-06-07T08:09:10.123Z', 1_099_511_627_776, true],
      ['2027-06-07T08:09:10.123Z', 5, true],
    ])
  })

  it('finds rows by another key, and only those matching `where`', async () => {
    await database.insertInto('events').values([{ name: 'a', starts_at: new Date(), big: 1, open: true }, { name: 'b', starts_at: new Date(), big: 1, open: false }]).execute()
    const changed = await updateMany(database, 'events', [{ name: 'a', big: 10 }, { name: 'b', big: 20 }], { key: 'name', where: sql`events.open = ${true}` })
    expect(changed).toBe(1)
    expect((await database.selectFrom('events').select('big').orderBy('id').execute()).map((event) => Number(event.big))).toEqual([10, 1])
  })

  it('refuses rows without the key or with different columns', async () => {
    await expect(updateMany(database, 'world', [{ randomNumber: 1 }])).rejects.toThrow('updateMany(world): a row has no "id", the key that names the row to change')
    await expect(updateMany(database, 'world', [{ id: 1, randomNumber: 1 }, { id: 2 }])).rejects.toThrow('updateMany(world): every row must carry the same columns (id, randomNumber)')
  })

  it('takes part in a transaction', async () => {
    await database
      .transaction()
      .execute(async (trx) => {
        await updateMany(trx, 'world', [{ id: 1, randomNumber: 5 }])
        throw new Error('undo')
      })
      .catch(() => undefined)
    expect((await numbers())[0]).toBe(0)
  })

  it('Model.updateMany: fillable columns only, updated_at set, trashed rows left alone', async () => {
    await database
      .insertInto('notes')
      .values([1, 2, 3].map((n) => ({ title: `t${n}`, stars: 0, author_id: n, created_at: '2020-01-01 00:00:00.000', updated_at: '2020-01-01 00:00:00.000' })))
      .execute()
    await Note.delete(3)
    const changed = await Note.updateMany([1, 2, 3].map((id) => ({ id, stars: id * 10, author_id: 99 })))
    expect(changed).toBe(2)
    const notes = await Note.query().withTrashed().orderBy('id').execute()
    expect(notes.map((note) => [note.stars, note.author_id])).toEqual([
      [10, 1],
      [20, 2],
      [0, 3],
    ])
    expect(notes[0]!.updated_at.getTime()).toBeGreaterThan(Date.parse('2021-01-01'))
  })
}

describe('updateMany on SQLite', () => {
  let folder: string
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'fw-update-many-'))
  })
  afterAll(() => rmSync(folder, { recursive: true, force: true }))

  updateManyCases(() => createDatabase<TestTables>(`sqlite:${join(folder, 'app.sqlite')}`))

  it('splits rows past SQLite’s 32,766 parameters into several statements', async () => {
    const database = createDatabase<TestTables>(`sqlite:${join(folder, 'many.sqlite')}`)
    try {
      await database.schema.createTable('world').addColumn('id', 'integer', (column) => column.primaryKey()).addColumn('randomNumber', 'integer').execute()
      const rows = Array.from({ length: 20_000 }, (_, i) => ({ id: i + 1, randomNumber: i }))
      await database.insertInto('world').values(rows.slice(0, 10_000).map((row) => ({ ...row, randomNumber: 0 }))).execute()
      await database.insertInto('world').values(rows.slice(10_000).map((row) => ({ ...row, randomNumber: 0 }))).execute()
      expect(await updateMany(database, 'world', rows)).toBe(20_000)
      expect(await database.selectFrom('world').select('randomNumber').where('id', '=', 20_000).executeTakeFirst()).toEqual({ randomNumber: 19_999 })
    } finally {
      await database.destroy()
    }
  })
})

describe('updateMany on PostgreSQL', () => {
  let server: TestPostgres
  beforeAll(async () => {
    server = await startPostgres()
  }, 60_000)
  afterAll(() => server?.stop())

  updateManyCases(() => createDatabase<TestTables>(server.url))
})
