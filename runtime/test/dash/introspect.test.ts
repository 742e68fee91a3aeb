import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql, type Kysely } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { introspect, kindOf } from '../../src/dash/introspect.js'
import { Migrator } from '../../src/database/Migrator.js'
import { backends, createSchema } from './schema.js'

describe.each(backends)('introspect on $name', (backend) => {
  let db: Kysely<any>
  let close: () => Promise<void>
  beforeAll(async () => {
    ;({ db, close } = await backend.open())
    await createSchema(db)
    // The migrator's own tables exist in every migrated application.
    await new Migrator({ db, folder: '/nonexistent' }).status()
  }, 60_000)
  afterAll(() => close?.())

  it('lists every table and view by name, never the migrator’s own', async () => {
    const tables = await introspect(db)
    expect(tables.map((table) => table.name)).toEqual(['access_tokens', 'posts', 'secrets_only', 'titles', 'users'])
    expect(tables.find((table) => table.name === 'titles')).toMatchObject({ isView: true, readOnly: true })
    expect(tables.find((table) => table.name === 'posts')).toMatchObject({ isView: false, readOnly: false })
  })

  it('leaves out the tables of other schemas (pg-boss’s) or attached databases, which the dashboard’s queries do not reach', async () => {
    const postgres = backend.name === 'PostgreSQL'
    const folder = mkdtempSync(join(tmpdir(), 'fw-attached-'))
    if (postgres) await db.schema.createSchema('pgboss_like').execute()
    else await sql`attach database ${join(folder, 'other.sqlite')} as pgboss_like`.execute(db)
    await db.schema.createTable('pgboss_like.job').addColumn('id', 'integer').execute()
    await db.schema.createTable('pgboss_like.posts').addColumn('id', 'integer').execute()
    try {
      expect((await introspect(db)).map((table) => table.name)).toEqual(['access_tokens', 'posts', 'secrets_only', 'titles', 'users'])
    } finally {
      if (postgres) await db.schema.dropSchema('pgboss_like').cascade().execute()
      else await sql`detach database pgboss_like`.execute(db)
      rmSync(folder, { recursive: true, force: true })
    }
  })

  it('reads each column’s kind, nullability, default and key', async () => {
    const posts = (await introspect(db)).find((table) => table.name === 'posts')!
    const kinds = Object.fromEntries(posts.columns.map((column) => [column.name, column.kind]))
    expect(kinds).toEqual({
      id: 'integer',
      title: 'string',
      body: 'text',
      views: 'integer',
      published: 'boolean',
      published_on: 'date',
      rating: 'number',
      meta: 'json',
      created_at: 'datetime',
      updated_at: 'datetime',
    })
    expect(posts.key?.name).toBe('id')
    expect(posts.columns.find((column) => column.name === 'title')).toMatchObject({ nullable: false, hasDefault: false })
    expect(posts.columns.find((column) => column.name === 'views')).toMatchObject({ nullable: false, hasDefault: true })
    expect([...posts.managed]).toEqual(['id', 'created_at', 'updated_at'])
    expect(posts.secret).toEqual([])
  })

  it('keeps secret columns out of the columns, and names the ones a new row needs', async () => {
    const tables = await introspect(db)
    const users = tables.find((table) => table.name === 'users')!
    expect(users.columns.map((column) => column.name)).toEqual(['id', 'name', 'email', 'is_admin', 'created_at', 'updated_at'])
    expect(users.secret).toEqual(['password_hash', 'remember_token'])
    expect(users.requiredSecret).toEqual(['password_hash'])
    const tokens = tables.find((table) => table.name === 'access_tokens')!
    expect(tokens.secret).toEqual(['token_hash'])
    const secretsOnly = tables.find((table) => table.name === 'secrets_only')!
    expect(secretsOnly).toMatchObject({ columns: [], secret: ['api_key'], key: undefined })
  })

  it('hides, protects and keeps out what the options name', async () => {
    const tables = await introspect(db, { hidden: new Set(['titles']), readOnly: new Set(['access_tokens']), secret: new Set(['email']) })
    expect(tables.map((table) => table.name)).not.toContain('titles')
    expect(tables.find((table) => table.name === 'access_tokens')?.readOnly).toBe(true)
    expect(tables.find((table) => table.name === 'users')?.secret).toEqual(['email', 'password_hash', 'remember_token'])
  })

  it('sees a table created after the first call', async () => {
    expect((await introspect(db)).map((table) => table.name)).not.toContain('tags')
    await db.schema.createTable('tags').addColumn('label', 'text').execute()
    expect((await introspect(db)).find((table) => table.name === 'tags')).toMatchObject({ key: undefined, columns: [{ name: 'label', kind: 'text' }] })
  })
})

describe('kindOf', () => {
  it.each([
    ['integer', 'integer'],
    ['int4', 'integer'],
    ['bigserial', 'integer'],
    ['numeric(10,2)', 'number'],
    ['float8', 'number'],
    ['boolean', 'boolean'],
    ['bool', 'boolean'],
    ['timestamptz', 'datetime'],
    ['datetime', 'datetime'],
    ['date', 'date'],
    ['jsonb', 'json'],
    ['bytea', 'binary'],
    ['blob', 'binary'],
    ['text', 'text'],
    ['varchar(255)', 'string'],
    ['uuid', 'string'],
  ])('%s is %s', (type, kind) => {
    expect(kindOf(type)).toBe(kind)
  })
})
