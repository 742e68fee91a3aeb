import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql, type Kysely } from 'kysely'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { id, timestamps } from '../../src/database/columns.js'
import { createDatabase } from '../../src/database/createDatabase.js'
import { startPostgres, type TestPostgres } from '../support/postgres.js'

// One case table for both databases: the same writes must read back as the same values, and
// JSON.stringify of the rows must be byte for byte the same string on SQLite and on PostgreSQL.

let postgres: TestPostgres
let folder: string
beforeAll(async () => {
  postgres = await startPostgres()
  // A server whose own zone is not UTC: Fw's sessions must not take it.
  const admin = createDatabase<any>(postgres.url)
  await sql`alter database postgres set timezone to 'Asia/Kathmandu'`.execute(admin)
  await admin.destroy()
  folder = mkdtempSync(join(tmpdir(), 'fw-values-'))
}, 60_000)
afterAll(() => {
  postgres?.stop()
  if (folder) rmSync(folder, { recursive: true, force: true })
})

const backends = [
  { name: 'SQLite', open: () => createDatabase<any>('sqlite:values.sqlite', folder) },
  { name: 'PostgreSQL', open: () => createDatabase<any>(postgres.url) },
]

const CREATED = new Date('2024-01-02T03:04:05.006Z')

/** What the first row is written with, through kysely. */
const first = {
  flag: true,
  maybe: null,
  doc: { title: 'Hello', tags: ['a', 'b'], nested: { n: 1.5, none: null } },
  list: [1, 'two', { three: 3 }],
  ordered: { bb: 1, a: 2, ccc: { z: 0, y: 1 } },
  happened: new Date('2024-02-29T12:34:56.789Z'),
  day: '2024-02-29',
  big: 9007199254740991,
  price: 19.99,
  note: 'plain text',
  created_at: CREATED,
  updated_at: CREATED,
}

/** The rows as JSON, identical on both databases. */
const EXPECTED_JSON = [
  '[{"id":1,"flag":true,"maybe":null,"doc":{"title":"Hello","tags":["a","b"],"nested":{"n":1.5,"none":null}},"list":[1,"two",{"three":3}],',
  '"ordered":{"a":2,"bb":1,"ccc":{"y":1,"z":0}},"happened":"2024-02-29T12:34:56.789Z","day":"2024-02-29","big":9007199254740991,"price":"19.99",',
  '"note":"plain text","created_at":"2024-01-02T03:04:05.006Z","updated_at":"2024-01-02T03:04:05.006Z"},',
  '{"id":2,"flag":false,"maybe":true,"doc":{"from":"sql"},"list":[],"ordered":{},"happened":"1999-12-31T23:59:59.999Z","day":"2000-01-01",',
  '"big":-42,"price":"0.50","note":null,"created_at":"2024-01-02T03:04:05.006Z","updated_at":"2024-01-02T03:04:05.006Z"}]',
].join('')

describe.each(backends)('value forms on $name', (backend) => {
  let db: Kysely<any>
  beforeEach(async () => {
    db = backend.open()
    await db.schema.dropTable('things').ifExists().execute()
    await db.schema
      .createTable('things')
      .$call(id(db))
      .addColumn('flag', 'boolean', (column) => column.notNull().defaultTo(false))
      .addColumn('maybe', 'boolean')
      .addColumn('doc', 'json')
      .addColumn('list', 'json')
      .addColumn('ordered', 'jsonb')
      .addColumn('happened', 'timestamp')
      .addColumn('day', 'date')
      .addColumn('big', 'bigint')
      .addColumn('price', 'numeric(10, 2)')
      .addColumn('note', 'text')
      .$call(timestamps())
      .execute()
    return () => db.destroy()
  })

  /** The two rows of EXPECTED_JSON: one through kysely (returned by returningAll), one through `sql`. */
  async function insertBoth() {
    const returned = await db.insertInto('things').values(first).returningAll().executeTakeFirstOrThrow()
    await sql`insert into things (flag, maybe, doc, list, ordered, happened, day, big, price, note, created_at, updated_at)
      values (${false}, ${true}, ${'{"from":"sql"}'}, ${[]}, ${{}}, ${new Date('1999-12-31T23:59:59.999Z')}, ${new Date('2000-01-01T00:00:00Z')},
              ${-42n}, ${'0.50'}, ${null}, ${CREATED}, ${CREATED})`.execute(db)
    return returned
  }

  it('writes booleans, JSON, Dates, bigints and decimals, and reads back the same JSON (returningAll, select, sql)', async () => {
    const returned = await insertBoth()
    const rows = await db.selectFrom('things').selectAll().orderBy('id').execute()
    expect(JSON.stringify(rows)).toBe(EXPECTED_JSON)
    expect(returned).toEqual(rows[0])
    expect(rows[0]!.happened).toBeInstanceOf(Date)
    const { rows: raw } = await sql<Record<string, unknown>>`select * from things order by id`.execute(db)
    expect(JSON.stringify(raw)).toBe(EXPECTED_JSON)
    // kysely's own path (a transaction) and PostgreSQL's direct one give the same values.
    const inside = await db.transaction().execute((trx) => trx.selectFrom('things').selectAll().orderBy('id').execute())
    expect(JSON.stringify(inside)).toBe(EXPECTED_JSON)
  })

  it('converts the rows an update returns, and compares booleans, Dates and JSON written as values', async () => {
    await insertBoth()
    const updated = await db
      .updateTable('things')
      .set({ flag: false, maybe: false, list: ['x'], doc: { changed: true }, happened: new Date('2030-06-01T00:00:00.5Z') })
      .where('flag', '=', true)
      .returningAll()
      .execute()
    expect(updated).toHaveLength(1)
    expect(updated[0]).toMatchObject({ id: 1, flag: false, maybe: false, list: ['x'], doc: { changed: true }, happened: new Date('2030-06-01T00:00:00.500Z') })
    const later = await db.selectFrom('things').select('id').where('happened', '>', new Date('2029-01-01T00:00:00Z')).execute()
    expect(later).toEqual([{ id: 1 }])
    const flagged = await db.selectFrom('things').select(['id', 'flag']).where('maybe', '=', false).execute()
    expect(flagged).toEqual([{ id: 1, flag: false }])
  })

  it('fills created_at and updated_at with the current UTC time, to the millisecond', async () => {
    const before = Date.now()
    const row = await db.insertInto('things').defaultValues().returningAll().executeTakeFirstOrThrow()
    expect(row).toMatchObject({ flag: false, maybe: null, doc: null, happened: null, big: null, price: null })
    expect(row.created_at).toBeInstanceOf(Date)
    expect(row.updated_at).toEqual(row.created_at)
    // The server's zone is Asia/Kathmandu (+05:45): a session in it would be hours off.
    expect(Math.abs(row.created_at.getTime() - before)).toBeLessThan(60_000)
    const { rows } = await sql<{ stored: string }>`select cast(created_at as text) as stored from things`.execute(db)
    // PostgreSQL leaves out a fraction's trailing zeros; SQLite stores the text as Fw writes it.
    expect(rows[0]!.stored).toMatch(backend.name === 'SQLite' ? /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/ : /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d{1,3})?$/)
  })

  it('writes a Date as its UTC time whatever the process’s time zone', async () => {
    const zone = process.env.TZ
    process.env.TZ = 'America/New_York'
    try {
      expect(new Date('2024-02-29T12:00:00Z').getTimezoneOffset()).toBe(300)
      await db.insertInto('things').values({ happened: new Date('2024-02-29T12:34:56.789Z'), day: '2024-02-29' }).execute()
      const { rows } = await sql<{ stored: string }>`select cast(happened as text) as stored from things`.execute(db)
      expect(rows[0]!.stored).toBe('2024-02-29 12:34:56.789')
      const row = await db.selectFrom('things').select(['happened', 'day']).executeTakeFirstOrThrow()
      expect(JSON.stringify(row)).toBe('{"happened":"2024-02-29T12:34:56.789Z","day":"2024-02-29"}')
    } finally {
      if (zone === undefined) delete process.env.TZ
      else process.env.TZ = zone
    }
  })

  it('reads timestamps written as text in the forms apps stored before (ISO with T and Z, whole seconds)', async () => {
    await sql`insert into things (happened) values (${'2024-03-04T05:06:07.891Z'}), (${'2024-03-04 05:06:07'})`.execute(db)
    const rows = await db.selectFrom('things').select('happened').orderBy('id').execute()
    expect(rows.map((row) => row.happened)).toEqual([new Date('2024-03-04T05:06:07.891Z'), new Date('2024-03-04T05:06:07Z')])
  })

  it('leaves the values of expressions as the database computes them, and null as null', async () => {
    await insertBoth()
    const counted = await db.selectFrom('things').select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow()
    expect(counted.total).toBe(2)
    const nulls = await db.selectFrom('things').select(['maybe', 'note']).where('id', '=', 2).executeTakeFirstOrThrow()
    expect(nulls).toEqual({ maybe: true, note: null })
  })
})

describe('value forms that only one database can hold', () => {
  it('PostgreSQL: a bigint past 2^53 comes back as its exact text, a decimal always does', async () => {
    const db = createDatabase<any>(postgres.url)
    try {
      const { rows } = await sql`select 9223372036854775807::int8 as big, 9007199254740991::int8 as safe, 12345678901234567890.12::numeric as exact, 0.1::numeric as tenth, 'infinity'::timestamp as never`.execute(db)
      expect(rows[0]).toEqual({ big: '9223372036854775807', safe: 9007199254740991, exact: '12345678901234567890.12', tenth: '0.1', never: 'infinity' })
    } finally {
      await db.destroy()
    }
  })

  it('PostgreSQL: an array is written as JSON; a PostgreSQL array column takes sql.join, as the README shows', async () => {
    const db = createDatabase<any>(postgres.url)
    try {
      await sql`create table tagged (tags text[], doc jsonb)`.execute(db)
      const tags = ['a', 'b,c']
      await sql`insert into tagged (tags, doc) values (array[${sql.join(tags)}]::text[], ${['x', 1]})`.execute(db)
      const { rows } = await sql`select tags, doc, ${['y']}::jsonb as param from tagged`.execute(db)
      expect(rows).toEqual([{ tags: ['a', 'b,c'], doc: ['x', 1], param: ['y'] }])
    } finally {
      await db.destroy()
    }
  })

  it('PostgreSQL: the DATABASE_URL’s own options are kept, and the session is still in UTC', async () => {
    const db = createDatabase<any>(`${postgres.url}?options=${encodeURIComponent('-c search_path=public')}`)
    try {
      const { rows } = await sql`select current_setting('TimeZone') as zone, current_setting('search_path') as path`.execute(db)
      expect(rows[0]).toEqual({ zone: 'UTC', path: 'public' })
    } finally {
      await db.destroy()
    }
  })

  it('SQLite: a column added by another process (a migration) is converted without a restart', async () => {
    const app = createDatabase<any>('sqlite:migrated.sqlite', folder)
    const migrate = createDatabase<any>('sqlite:migrated.sqlite', folder)
    try {
      await app.schema.createTable('posts').$call(id(app)).addColumn('title', 'text').execute()
      await app.insertInto('posts').values({ title: 'Hello' }).execute()
      const read = () => app.selectFrom('posts').selectAll().execute()
      expect(await read()).toEqual([{ id: 1, title: 'Hello' }])
      await migrate.schema.alterTable('posts').addColumn('published', 'boolean', (column) => column.notNull().defaultTo(true)).execute()
      expect(await read()).toEqual([{ id: 1, title: 'Hello', published: true }])
      const streamed = []
      for await (const row of app.selectFrom('posts').selectAll().stream()) streamed.push(row)
      expect(streamed).toEqual([{ id: 1, title: 'Hello', published: true }])
    } finally {
      await app.destroy()
      await migrate.destroy()
    }
  })
})
