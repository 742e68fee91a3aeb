import { sql, type Kysely } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Dashboard } from '../../src/dash/Dashboard.js'
import { HttpError } from '../../src/http/HttpError.js'
import { backends, createSchema } from './schema.js'

describe.each(backends)('Dashboard on $name', (backend) => {
  let db: Kysely<any>
  let close: () => Promise<void>
  let dashboard: Dashboard
  beforeAll(async () => {
    ;({ db, close } = await backend.open())
    await createSchema(db)
    dashboard = new Dashboard({ db: () => db, perPage: 3 })
  }, 60_000)
  afterAll(() => close?.())

  const table = async (name: string) => (await dashboard.table(name))!
  const posts = (values: Record<string, unknown>[]) => db.insertInto('posts').values(values).execute()

  it('finds tables by name among the introspected ones only', async () => {
    expect((await dashboard.tables()).map((found) => found.name)).toContain('posts')
    expect(await dashboard.table('posts; drop table posts')).toBeUndefined()
    expect(await dashboard.table('fw_migrations')).toBeUndefined()
  })

  it('lists the auth bookkeeping tables read-only by default', async () => {
    expect((await table('access_tokens')).readOnly).toBe(true)
    expect((await table('users')).readOnly).toBe(false)
    const open = new Dashboard({ db: () => db, readOnly: [] })
    expect((await open.table('access_tokens'))!.readOnly).toBe(false)
  })

  it('lists, searches (ignoring case, % and _ literal), sorts and pages', async () => {
    await posts([
      { title: 'Zebra 100%', views: 3 },
      { title: 'alpha_beta', views: 7 },
      { title: 'alphaXbeta', views: 5, body: 'NEEDLE in a haystack' },
      { title: 'Omega', views: 1 },
    ])
    const postsTable = await table('posts')
    const titles = async (query: object) => (await dashboard.list(postsTable, query)).rows.map((row) => row.title)
    expect(await titles({ search: 'needle' })).toEqual(['alphaXbeta'])
    expect(await titles({ search: 'a_b' })).toEqual(['alpha_beta'])
    expect(await titles({ search: '100%' })).toEqual(['Zebra 100%'])
    expect(await titles({ sort: 'views', direction: 'desc' })).toEqual(['alpha_beta', 'alphaXbeta', 'Zebra 100%'])
    expect(await titles({ sort: 'title; drop table posts --' })).toEqual(['Zebra 100%', 'alpha_beta', 'alphaXbeta'])

    const second = await dashboard.list(postsTable, { page: '2' })
    expect(second).toMatchObject({ total: 4, page: 2, lastPage: 2, search: '', sort: undefined, direction: 'asc' })
    expect(second.rows.map((row) => row.title)).toEqual(['Omega'])
    expect((await dashboard.list(postsTable, { page: '99' })).page).toBe(2)
    expect((await dashboard.list(postsTable, { page: 'x' })).page).toBe(1)
  })

  it('never reads, searches or sorts by a secret column', async () => {
    const users = await table('users')
    const list = await dashboard.list(users, {})
    expect(list.rows.map((row) => row.email)).toEqual(['ada@example.com', 'eve@example.com'])
    for (const row of list.rows) expect(Object.keys(row)).not.toContain('password_hash')
    expect(JSON.stringify(list)).not.toContain('scrypt')

    expect((await dashboard.list(users, { search: 'scrypt$' })).total).toBe(0)
    expect((await dashboard.list(users, { search: 'hash' })).total).toBe(0)
    // Sorting by the hash would reveal its order: the column is unknown to the dashboard, so it is ignored.
    expect((await dashboard.list(users, { sort: 'password_hash', direction: 'desc' })).sort).toBeUndefined()

    const found = await dashboard.row(users, '1')
    expect(found?.row).toMatchObject({ id: 1, email: 'ada@example.com' })
    expect(Object.keys(found!.row)).not.toContain('password_hash')
    expect(Object.keys(found!.row)).not.toContain('remember_token')
  })

  it('opens a row by the key from the URL, and nothing for a key its column cannot hold', async () => {
    const postsTable = await table('posts')
    expect((await dashboard.row(postsTable, '1'))?.key).toBe(1)
    expect(await dashboard.row(postsTable, '999')).toBeUndefined()
    expect(await dashboard.row(postsTable, 'abc')).toBeUndefined()
    // Out of the integer range: PostgreSQL would fail the comparison (22003).
    expect(await dashboard.row(postsTable, '99999999999999999999')).toBeUndefined()
    expect(await dashboard.row(postsTable, '2147483648')).toBeUndefined()
    expect(await dashboard.row(await table('titles'), '1')).toBeDefined()
  })

  it('creates a row from a form, checking values by kind, and shows what the database refuses', async () => {
    const postsTable = await table('posts')
    const invalid = await dashboard.create(postsTable, { 'fields[title]': '', 'fields[views]': 'many' })
    expect(invalid).toMatchObject({ ok: false, form: { errors: { title: 'This field is required.', views: 'Enter a whole number, such as 42.' } } })

    const created = await dashboard.create(postsTable, {
      'fields[title]': 'Hello',
      'fields[published]': '1',
      'fields[published_on]': '2024-02-29',
      'fields[meta]': '{"a": [1, "b"]}',
    })
    expect(created).toEqual({ ok: true, key: 5 })
    expect(await db.selectFrom('posts').select(['title', 'views']).where('id', '=', 5).executeTakeFirst()).toEqual({ title: 'Hello', views: 0 })
    // The same values on both databases, as the row view and the edit form get them.
    const found = await dashboard.row(postsTable, '5')
    expect(found?.row).toMatchObject({ published: true, published_on: '2024-02-29', meta: { a: [1, 'b'] } })
    expect(found?.row.created_at).toBeInstanceOf(Date)

    const users = await table('users')
    const duplicate = await dashboard.update(users, 2, { 'fields[name]': 'Eve', 'fields[email]': 'ada@example.com', 'fields[is_admin]': '0' })
    expect(duplicate.ok).toBe(false)
    expect(duplicate.ok === false && duplicate.problem).toMatch(/unique|duplicate/i)
  })

  it('refuses to create rows that need a secret column, and writes nothing', async () => {
    const users = await table('users')
    const error = await dashboard.create(users, { 'fields[name]': 'Mallory', 'fields[email]': 'm@example.com', 'fields[password_hash]': 'x' }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(HttpError)
    expect(error).toMatchObject({ status: 403, message: 'Rows of users cannot be created here: they need password_hash, which a dashboard never sets' })
    expect(await db.selectFrom('users').select('email').where('email', '=', 'm@example.com').execute()).toEqual([])
  })

  it('refuses every write to a read-only table or a view with a 403, and writes nothing', async () => {
    const tokens = await table('access_tokens')
    const titles = await table('titles')
    for (const write of [
      () => dashboard.create(tokens, { 'fields[user_id]': '1', 'fields[kind]': 'api', 'fields[token_hash]': 'a'.repeat(64) }),
      () => dashboard.update(tokens, 1, { 'fields[kind]': 'api' }),
      () => dashboard.delete(tokens, 1),
      () => dashboard.create(titles, { 'fields[title]': 'x' }),
    ]) {
      await expect(write()).rejects.toMatchObject({ status: 403 })
    }
    expect(await db.selectFrom('access_tokens').selectAll().execute()).toEqual([])
  })

  it('never writes a secret column, even when a form sends one', async () => {
    const users = await table('users')
    const saved = await dashboard.update(users, 1, {
      'fields[name]': 'Ada L.',
      'fields[email]': 'ada@example.com',
      'fields[is_admin]': '1',
      'fields[password_hash]': 'forged',
      'fields[remember_token]': 'forged',
    })
    expect(saved).toEqual({ ok: true, key: 1 })
    const row = await db.selectFrom('users').selectAll().where('id', '=', 1).executeTakeFirstOrThrow()
    expect(row).toMatchObject({ name: 'Ada L.', password_hash: 'scrypt$16384$8$1$salt$hash', remember_token: null })
    expect(row.is_admin).toBe(true)
  })

  it('deletes a row, and reports what the database refuses', async () => {
    const users = await table('users')
    await sql`insert into access_tokens (user_id, token_hash, kind) values (2, ${'b'.repeat(64)}, 'api')`.execute(db)
    expect(await dashboard.delete(await table('posts'), 5)).toEqual({})
    expect(await db.selectFrom('posts').select('id').where('id', '=', 5).execute()).toEqual([])
    // ON DELETE CASCADE: the user's tokens go with them.
    expect(await dashboard.delete(users, 2)).toEqual({})
    expect(await db.selectFrom('access_tokens').selectAll().execute()).toEqual([])
  })

  it('counts the rows of a table and shows a table whose every column is secret by its count only', async () => {
    const secretsOnly = await table('secrets_only')
    await db.insertInto('secrets_only').values({ api_key: 'k' }).execute()
    expect(await dashboard.count(secretsOnly)).toBe(1)
    expect(await dashboard.list(secretsOnly, { search: 'k' })).toMatchObject({ rows: [], total: 0 })
    expect(await dashboard.list(secretsOnly)).toMatchObject({ rows: [], total: 1 })
  })
})
