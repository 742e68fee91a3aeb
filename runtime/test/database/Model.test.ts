import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { ColumnType, Generated, Kysely } from 'kysely'
import { Container } from '../../src/container/Container.js'
import { id, timestamps } from '../../src/database/columns.js'
import { createDatabase } from '../../src/database/createDatabase.js'
import { db } from '../../src/database/db.js'
import { Model } from '../../src/database/Model.js'
import { startPostgres, type TestPostgres } from '../support/postgres.js'

interface NotesTable {
  id: Generated<number>
  title: string
  stars: Generated<number>
  created_at: ColumnType<Date, string | Date | undefined, string | Date>
  updated_at: ColumnType<Date, string | Date | undefined, string | Date>
}

// A table map of the test's own: augmenting `Tables` here would retype every other test's database.
interface TestTables {
  notes: NotesTable
}

class Note extends Model<'notes', TestTables>('notes') {
  static starred() {
    return this.where('stars', '>', 0)
  }
}

function modelCases(open: () => Kysely<any>) {
  let database: Kysely<any>
  beforeEach(async () => {
    database = open()
    await database.schema.dropTable('notes').ifExists().execute()
    await database.schema
      .createTable('notes')
      .$call(id(database))
      .addColumn('title', 'text', (column) => column.notNull())
      .addColumn('stars', 'integer', (column) => column.notNull().defaultTo(0))
      .$call(timestamps())
      .execute()
    Container.setInstance(new Container().instance('db', database))
    return async () => {
      Container.setInstance(undefined)
      await database.destroy()
    }
  })

  it('creates rows with their generated id and timestamps, and finds them', async () => {
    const first = await Note.create({ title: 'First' })
    const second = await Note.create({ title: 'Second', stars: 3 })

    expect(first).toMatchObject({ id: 1, title: 'First', stars: 0 })
    expect(second.id).toBe(2)
    expect(first.created_at).toBeInstanceOf(Date)
    expect(await Note.find(2)).toEqual(second)
    expect(await Note.find(99)).toBeUndefined()
    expect(Note.table).toBe('notes')
  })

  it('lists all, filters with where, and takes scopes written on the class', async () => {
    await Note.create({ title: 'a', stars: 1 })
    await Note.create({ title: 'b' })
    await Note.create({ title: 'c', stars: 5 })

    expect((await Note.all()).map((note) => note.title)).toEqual(['a', 'b', 'c'])
    expect((await Note.where('title', '=', 'b')).map((note) => note.id)).toEqual([2])
    expect((await Note.where('title', 'in', ['a', 'c'])).map((note) => note.id)).toEqual([1, 3])
    expect((await Note.starred()).map((note) => note.title)).toEqual(['a', 'c'])
    expect((await Note.query().where('stars', '>=', 5).execute()).map((note) => note.title)).toEqual(['c'])
  })

  it('updates a row and its updated_at, deletes it, and says when there was none', async () => {
    const note = await Note.create({ title: 'Draft' })
    await database.updateTable('notes').set({ updated_at: '2000-01-01 00:00:00' }).execute()

    const updated = await Note.update(note.id, { title: 'Final' })

    expect(updated).toMatchObject({ id: note.id, title: 'Final' })
    expect(updated!.updated_at.getTime()).toBeGreaterThan(Date.parse('2000-01-01T00:00:00Z'))
    expect(await Note.update(99, { title: 'x' })).toBeUndefined()
    expect(await Note.delete(note.id)).toBe(true)
    expect(await Note.delete(note.id)).toBe(false)
    expect(await Note.all()).toEqual([])
  })

  it('paginates with the seed meta', async () => {
    for (let i = 1; i <= 23; i++) await Note.create({ title: `Note ${i}` })

    const page = await Note.paginate(3, 10)

    expect(page.meta).toEqual({ current_page: 3, per_page: 10, total: 23, last_page: 3 })
    expect(page.data.map((note) => note.title)).toEqual(['Note 21', 'Note 22', 'Note 23'])
    expect((await Note.paginate()).meta).toEqual({ current_page: 1, per_page: 15, total: 23, last_page: 2 })
    expect((await Note.paginate(0, -4)).meta.current_page).toBe(1)
  })

  it('reads the db service of the container at each query', async () => {
    expect(db()).toBe(database)
    await Note.create({ title: 'here' })
    const other = open()
    try {
      Container.setInstance(new Container().instance('db', other))
      await other.schema.dropTable('notes').ifExists().execute()
      await other.schema.createTable('notes').$call(id(other)).addColumn('title', 'text').addColumn('stars', 'integer').$call(timestamps()).execute()
      expect(await Note.all()).toEqual([])
    } finally {
      await other.schema.dropTable('notes').ifExists().execute()
      Container.setInstance(new Container().instance('db', database))
      await other.destroy()
    }
  })
}

describe('Model on SQLite', () => {
  let folder: string
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'fw-model-'))
  })
  afterAll(() => rmSync(folder, { recursive: true, force: true }))

  modelCases(() => createDatabase(`sqlite:${join(folder, 'app.sqlite')}`))
})

describe('Model on PostgreSQL', () => {
  let server: TestPostgres
  beforeAll(async () => {
    server = await startPostgres()
  }, 60_000)
  afterAll(() => server?.stop())

  modelCases(() => createDatabase(server.url))
})

describe('the db service', () => {
  let folder: string
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'fw-db-'))
    return () => rmSync(folder, { recursive: true, force: true })
  })

  it('is registered by Container.getInstance() and opens DATABASE_URL on first use, once', async () => {
    const saved = process.env.DATABASE_URL
    Container.setInstance(undefined)
    try {
      const container = Container.getInstance()
      process.env.DATABASE_URL = `sqlite:${join(folder, 'lazy.sqlite')}`
      const service = container.make<Kysely<any>>('db')
      expect(container.make('db')).toBe(service)
      await service.schema.createTable('t').addColumn('x', 'integer').execute()
      const check = createDatabase(`sqlite:${join(folder, 'lazy.sqlite')}`)
      expect((await check.introspection.getTables()).map((table) => table.name)).toEqual(['t'])
      await check.destroy()
      await service.destroy()
    } finally {
      process.env.DATABASE_URL = saved
      if (saved === undefined) delete process.env.DATABASE_URL
      Container.setInstance(undefined)
    }
  })

  it('defaults to database/database.sqlite under the root, creating the folder', async () => {
    const database = createDatabase(undefined, folder)
    await database.schema.createTable('t').addColumn('x', 'integer').execute()
    await database.destroy()
    const { existsSync } = await import('node:fs')
    expect(existsSync(join(folder, 'database/database.sqlite'))).toBe(true)
  })
})
