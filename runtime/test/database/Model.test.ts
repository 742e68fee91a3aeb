import { randomUUID } from 'node:crypto'
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
import { HttpError } from '../../src/http/HttpError.js'
import { startPostgres, type TestPostgres } from '../support/postgres.js'
import { Comment } from './blog/Comment.js'
import { Post } from './blog/Post.js'
import { backends, useBlog } from './blog/schema.js'
import { Tag } from './blog/Tag.js'
import { User } from './blog/User.js'

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

describe.each(backends)('Model API on $name', (backend) => {
  const blog = useBlog(backend)

  const ada = () => User.forceCreate({ name: 'Ada', email: 'ada@example.com', password_hash: 'scrypt$secret' })

  it('finds a row by key, or fails with a 404 HttpError', async () => {
    const user = await ada()
    expect(await User.findOrFail(user.id)).toEqual(user)
    expect(await User.findOrFail(String(user.id))).toEqual(user)
    const missing = await User.findOrFail(user.id + 1).catch((error: unknown) => error)
    expect(missing).toBeInstanceOf(HttpError)
    expect(missing).toMatchObject({ status: 404, message: 'Not Found' })
  })

  it('finds nothing for a key the integer column cannot hold, without asking the database', async () => {
    await ada()
    blog.queries.clear()
    for (const key of ['abc', '99999999999999999999', '2147483648', '1.5', '', ' 1', '1e3', 1.5, Number.NaN]) {
      expect(await User.find(key), String(key)).toBeUndefined()
      await expect(User.findOrFail(key)).rejects.toMatchObject({ status: 404, message: 'Not Found' })
      expect(await User.update(key, { name: 'x' })).toBeUndefined()
      expect(await User.delete(key)).toBe(false)
      expect(await Post.restore(key)).toBe(false)
    }
    expect(blog.queries.tables).toEqual([])
    expect(await User.find('1')).toMatchObject({ name: 'Ada' })
    expect(await User.find('-1')).toBeUndefined()
  })

  it('finds nothing for a key a uuid column cannot hold, and finds a uuid whatever its case', async () => {
    class Token extends Model('uuid_tokens', { keyType: 'uuid', timestamps: false }) {}
    await blog.db.schema.dropTable('uuid_tokens').ifExists().execute()
    await blog.db.schema
      .createTable('uuid_tokens')
      .addColumn('id', blog.postgres ? 'uuid' : 'text', (column) => column.primaryKey())
      .addColumn('name', 'text')
      .execute()
    const id = randomUUID()
    await Token.forceCreate({ id, name: 'first' })
    expect(await Token.find(id.toUpperCase())).toEqual({ id, name: 'first' })
    for (const key of ['abc', '99999999999999999999', `${id}0`, `{${id}}`]) {
      expect(await Token.find(key), key).toBeUndefined()
      await expect(Token.findOrFail(key)).rejects.toMatchObject({ status: 404 })
    }
  })

  it('takes the first row by a column, with or without an operator', async () => {
    const user = await ada()
    await Post.create({ author_id: user.id, title: 'Draft', body: null })
    await Post.create({ author_id: user.id, title: 'Hello', body: 'Hi' })
    await Post.create({ author_id: user.id, title: 'Again', body: 'Hi' })

    expect(await Post.firstWhere('title', 'Hello')).toMatchObject({ id: 2, title: 'Hello' })
    expect(await Post.firstWhere('body', 'Hi')).toMatchObject({ id: 2 })
    expect(await Post.firstWhere('body', null)).toMatchObject({ id: 1, title: 'Draft' })
    expect(await Post.firstWhere('id', '>', 1)).toMatchObject({ id: 2 })
    expect(await Post.firstWhere('title', 'Nothing')).toBeUndefined()
  })

  it('counts rows and says whether there are any', async () => {
    expect(await Post.count()).toBe(0)
    expect(await Post.exists()).toBe(false)
    const user = await ada()
    await Post.create({ author_id: user.id, title: 'One' })
    await Post.create({ author_id: user.id, title: 'Two' })
    expect(await Post.count()).toBe(2)
    expect(await Post.exists()).toBe(true)
  })

  it('updates the row that matches, or creates one of the attributes and values', async () => {
    const user = await ada()
    const created = await Post.updateOrCreate({ author_id: user.id, title: 'Hello' }, { body: 'First' })
    expect(created).toMatchObject({ id: 1, author_id: user.id, title: 'Hello', body: 'First', status: 'draft' })

    const updated = await Post.updateOrCreate({ author_id: user.id, title: 'Hello' }, { body: 'Second', status: 'published' })
    expect(updated).toMatchObject({ id: 1, title: 'Hello', body: 'Second', status: 'published' })
    expect(await Post.count()).toBe(1)

    const unchanged = await Post.updateOrCreate({ title: 'Hello' })
    expect(unchanged).toEqual(updated)
    // Not fillable: dropped from the values, as create and update drop it.
    const guarded = await Post.updateOrCreate({ title: 'Hello' }, { views: 99 } as never)
    expect(guarded.views).toBe(0)
  })

  it('keeps hidden columns readable on rows but out of their JSON, keys and spreads, whichever method returns them', async () => {
    const user = await ada()
    await Post.create({ author_id: user.id, title: 'Hello' })
    const rows = [
      user,
      await User.find(user.id),
      await User.findOrFail(user.id),
      (await User.all())[0],
      (await User.where('name', '=', 'Ada'))[0],
      await User.firstWhere('email', 'ada@example.com'),
      await User.update(user.id, { name: 'Ada L.' }),
      await User.updateOrCreate({ email: 'ada@example.com' }, { name: 'Ada' }),
      await User.query().first(),
      (await User.paginate()).data[0],
      (await Post.query().with('author').firstOrFail()).author,
    ]
    for (const row of rows) {
      expect(row!.password_hash).toBe('scrypt$secret')
      expect(Object.keys(row!)).not.toContain('password_hash')
      expect(JSON.stringify(row)).not.toContain('secret')
      expect({ ...row }).not.toHaveProperty('password_hash')
    }
    expect(JSON.parse(JSON.stringify(rows[0]))).toEqual({ id: 1, name: 'Ada', email: 'ada@example.com', created_at: expect.anything(), updated_at: expect.anything() })
  })

  it('writes only the fillable columns on create and update, silently dropping the others; forceCreate and forceUpdate write all', async () => {
    const user = await User.forceCreate({ name: 'Ada', email: 'ada@example.com', password_hash: 'h' })
    const input: Record<string, unknown> = { author_id: user.id, title: 'Hello', views: 1000, id: 77, created_at: '2000-01-01 00:00:00.000' }
    const post = await Post.create(input as never)
    expect(post).toMatchObject({ id: 1, title: 'Hello', views: 0 })
    expect(post.created_at).not.toEqual('2000-01-01 00:00:00.000')

    expect(await Post.update(post.id, { title: 'Changed', views: 5 } as never)).toMatchObject({ title: 'Changed', views: 0 })
    expect(await Post.forceUpdate(post.id, { views: 5 })).toMatchObject({ title: 'Changed', views: 5 })
    expect(await Post.forceCreate({ author_id: user.id, title: 'Forced', views: 9 })).toMatchObject({ id: 2, views: 9 })
    // Every key of a model without a fillable list is written.
    expect(await Comment.create({ post_id: 1, author_id: user.id, body: 'Hi', stars: 4 })).toMatchObject({ stars: 4 })
  })

  it('soft deletes: delete sets deleted_at, queries leave the row out, withTrashed and onlyTrashed see it, restore and forceDelete', async () => {
    const user = await ada()
    const kept = await Post.create({ author_id: user.id, title: 'Kept' })
    const trashed = await Post.create({ author_id: user.id, title: 'Trashed' })

    expect(await Post.delete(trashed.id)).toBe(true)
    expect(await Post.delete(trashed.id)).toBe(false)
    const row = await blog.db.selectFrom('posts').selectAll().where('id', '=', trashed.id).executeTakeFirstOrThrow()
    expect(row.deleted_at).not.toBeNull()
    expect(String(row.updated_at)).toBe(String(row.deleted_at))

    expect(await Post.find(trashed.id)).toBeUndefined()
    await expect(Post.findOrFail(trashed.id)).rejects.toMatchObject({ status: 404 })
    expect((await Post.all()).map((post) => post.title)).toEqual(['Kept'])
    expect(await Post.count()).toBe(1)
    expect(await Post.firstWhere('title', 'Trashed')).toBeUndefined()
    expect(await Post.update(trashed.id, { title: 'x' })).toBeUndefined()
    expect((await Post.query().withTrashed().orderBy('id').execute()).map((post) => post.title)).toEqual(['Kept', 'Trashed'])
    expect((await Post.query().onlyTrashed().execute()).map((post) => post.title)).toEqual(['Trashed'])
    expect(await Post.query().onlyTrashed().count()).toBe(1)

    expect(await Post.restore(kept.id)).toBe(false)
    expect(await Post.restore(trashed.id)).toBe(true)
    expect(await Post.findOrFail(trashed.id)).toMatchObject({ title: 'Trashed', deleted_at: null })

    await Post.delete(trashed.id)
    expect(await Post.forceDelete(trashed.id)).toBe(true)
    expect(await Post.query().withTrashed().count()).toBe(1)
    expect(await Post.forceDelete(kept.id)).toBe(true)
    expect(await Post.query().withTrashed().count()).toBe(0)
  })

  it('refuses soft-delete methods on a model without soft deletes', async () => {
    await expect(User.restore(1)).rejects.toThrow("User has no soft deletes to restore: declare it with Model('users', { softDeletes: true })")
    expect(() => User.query().withTrashed()).toThrow("User has no soft deletes: declare it with Model('users', { softDeletes: true })")
  })

  it('sets created_at and updated_at to the same time on create, and updated_at alone on update', async () => {
    const user = await ada()
    expect(user.created_at).toEqual(user.updated_at)
    expect(instant(user.created_at)).toBeGreaterThan(Date.now() - 60_000)
    await blog.db.updateTable('users').set({ created_at: '2000-01-01 00:00:00.123', updated_at: '2000-01-01 00:00:00.123' }).execute()

    const updated = (await User.update(user.id, { name: 'Ada L.' }))!
    expect(instant(updated.created_at)).toBe(Date.parse('2000-01-01T00:00:00.123Z'))
    expect(instant(updated.updated_at)).toBeGreaterThan(Date.parse('2001-01-01T00:00:00Z'))
    // A model without timestamps writes none.
    expect(await Tag.create({ name: 'news' })).toEqual({ id: 1, name: 'news' })
  })
})

/** A timestamp column's value as milliseconds since the epoch, whether the driver gives a Date or the UTC text form. */
function instant(value: unknown): number {
  return value instanceof Date ? value.getTime() : Date.parse(`${String(value).replace(' ', 'T')}Z`)
}
