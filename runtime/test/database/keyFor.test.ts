import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Kysely } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { id } from '../../src/database/columns.js'
import { createDatabase } from '../../src/database/createDatabase.js'
import { keyFor, type KeyType } from '../../src/database/keyFor.js'
import { startPostgres, type TestPostgres } from '../support/postgres.js'

// Opening a database connects on the first query only: these tell keyFor the dialect and nothing more.
const sqlite = createDatabase<any>('sqlite:never-opened.sqlite', tmpdir())
const postgres = createDatabase<any>('postgres://nobody@127.0.0.1:1/none')

describe('keyFor', () => {
  it.each<[KeyType, unknown, number | string | undefined, number | string | undefined]>([
    // type, value, on SQLite, on PostgreSQL
    ['integer', '42', 42, 42],
    ['integer', 42, 42, 42],
    ['integer', '-7', -7, -7],
    ['integer', '007', 7, 7],
    ['integer', 'abc', undefined, undefined],
    ['integer', '4.2', undefined, undefined],
    ['integer', 4.2, undefined, undefined],
    ['integer', '', undefined, undefined],
    ['integer', ' 42', undefined, undefined],
    ['integer', '2147483647', 2147483647, 2147483647],
    ['integer', '2147483648', 2147483648, undefined],
    ['integer', '9007199254740993', '9007199254740993', undefined],
    ['integer', '99999999999999999999', undefined, undefined],
    ['integer', null, undefined, undefined],
    ['integer', { id: 1 }, undefined, undefined],
    ['smallint', '32768', 32768, undefined],
    ['bigint', '9223372036854775807', '9223372036854775807', '9223372036854775807'],
    ['bigint', '9223372036854775808', undefined, undefined],
    ['bigint', 12n, 12, 12],
    ['uuid', 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'],
    ['uuid', 'abc', undefined, undefined],
    ['string', 'hello', 'hello', 'hello'],
    ['string', 12, '12', '12'],
    ['string', 'a\0b', undefined, undefined],
  ])('%s %o → %o on SQLite, %o on PostgreSQL', (type, value, onSqlite, onPostgres) => {
    expect(keyFor(sqlite, type, value)).toBe(onSqlite)
    expect(keyFor(postgres, type, value)).toBe(onPostgres)
  })
})

describe('keyFor on real databases', () => {
  let server: TestPostgres
  let folder: string
  beforeAll(async () => {
    server = await startPostgres()
    folder = mkdtempSync(join(tmpdir(), 'fw-keys-'))
  }, 60_000)
  afterAll(() => {
    server?.stop()
    if (folder) rmSync(folder, { recursive: true, force: true })
  })

  const find = (db: Kysely<any>, value: string) => {
    const key = keyFor(db, 'integer', value)
    return key === undefined ? undefined : db.selectFrom('posts').selectAll().where('id', '=', key).executeTakeFirst()
  }

  it.each([
    ['SQLite', () => createDatabase<any>('sqlite:keys.sqlite', folder)],
    ['PostgreSQL', () => createDatabase<any>(server.url)],
  ])('on %s, finds the row of a key and nothing for one the column cannot hold, even inside a transaction', async (_name, open) => {
    const db = open()
    try {
      await db.schema.createTable('posts').$call(id(db)).addColumn('title', 'text').execute()
      await db.insertInto('posts').values({ title: 'Hello' }).execute()
      expect(await find(db, '1')).toEqual({ id: 1, title: 'Hello' })
      await db.transaction().execute(async (trx) => {
        for (const key of ['abc', '99999999999999999999', '2147483648', '1.5', '']) expect(await find(trx, key)).toBeUndefined()
        // The transaction is still usable: PostgreSQL would have aborted it on a failed comparison.
        expect(await find(trx, '1')).toEqual({ id: 1, title: 'Hello' })
      })
    } finally {
      await db.destroy()
    }
  })

  it('on PostgreSQL, the comparisons keyFor leaves out are errors (22P02, 22003)', async () => {
    const db = createDatabase<any>(server.url)
    try {
      await db.schema.createTable('notes').ifNotExists().$call(id(db)).execute()
      const codeOf = (key: string) => db.selectFrom('notes').selectAll().where('id', '=', key).execute().then(() => 'found', (error: { code?: string }) => error.code)
      expect(await codeOf('abc')).toBe('22P02')
      expect(await codeOf('99999999999999999999')).toBe('22003')
    } finally {
      await db.destroy()
    }
  })
})
