import { sql, type Kysely } from 'kysely'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { id, timestamps } from '../../src/database/columns.js'
import { createDatabase, isMysqlUrl } from '../../src/database/createDatabase.js'
import { dialectOf, dialectOfBuilder } from '../../src/database/dialectOf.js'
import { startMariadb, type TestMariadb } from '../support/mariadb.js'

// The values of values.test.ts (SQLite and PostgreSQL), on a real MariaDB: the same writes read back as the same
// JSON, byte for byte. Left out here: `jsonb` (PostgreSQL's), and `returning`, which MySQL does not have.

let mariadb: TestMariadb
beforeAll(async () => {
  mariadb = await startMariadb()
}, 60_000)
afterAll(() => mariadb?.stop())

const CREATED = new Date('2024-01-02T03:04:05.006Z')

const first = {
  flag: true,
  maybe: null,
  doc: { title: 'Hello', tags: ['a', 'b'], nested: { n: 1.5, none: null } },
  list: [1, 'two', { three: 3 }],
  happened: new Date('2024-02-29T12:34:56.789Z'),
  day: '2024-02-29',
  big: 9007199254740991,
  price: 19.99,
  note: 'plain text',
  created_at: CREATED,
  updated_at: CREATED,
}

/** values.test.ts's EXPECTED_JSON without its jsonb column. */
const EXPECTED_JSON = [
  '[{"id":1,"flag":true,"maybe":null,"doc":{"title":"Hello","tags":["a","b"],"nested":{"n":1.5,"none":null}},"list":[1,"two",{"three":3}],',
  '"happened":"2024-02-29T12:34:56.789Z","day":"2024-02-29","big":9007199254740991,"price":"19.99",',
  '"note":"plain text","created_at":"2024-01-02T03:04:05.006Z","updated_at":"2024-01-02T03:04:05.006Z"},',
  '{"id":2,"flag":false,"maybe":true,"doc":{"from":"sql"},"list":[],"happened":"1999-12-31T23:59:59.999Z","day":"2000-01-01",',
  '"big":-42,"price":"0.50","note":null,"created_at":"2024-01-02T03:04:05.006Z","updated_at":"2024-01-02T03:04:05.006Z"}]',
].join('')

describe('value forms on MariaDB', () => {
  let db: Kysely<any>
  beforeEach(async () => {
    db = createDatabase<any>(mariadb.url)
    await db.schema.dropTable('things').ifExists().execute()
    await db.schema
      .createTable('things')
      .$call(id(db))
      .addColumn('flag', 'boolean', (column) => column.notNull().defaultTo(false))
      .addColumn('maybe', 'boolean')
      .addColumn('doc', 'json')
      .addColumn('list', 'json')
      .addColumn('happened', 'timestamp')
      .addColumn('day', 'date')
      .addColumn('big', 'bigint')
      .addColumn('price', 'numeric(10, 2)')
      .addColumn('note', 'text')
      .$call(timestamps())
      .execute()
    return () => db.destroy()
  })

  async function insertBoth() {
    await db.insertInto('things').values(first).execute()
    await sql`insert into things (flag, maybe, doc, list, happened, day, big, price, note, created_at, updated_at)
      values (${false}, ${true}, ${'{"from":"sql"}'}, ${[]}, ${new Date('1999-12-31T23:59:59.999Z')}, ${'2000-01-01'},
              ${-42n}, ${'0.50'}, ${null}, ${CREATED}, ${CREATED})`.execute(db)
  }

  it('is the mysql dialect, for a mysql:// or a mariadb:// URL', async () => {
    expect(isMysqlUrl('mysql://app@127.0.0.1/app')).toBe(true)
    expect(isMysqlUrl('mariadb://app@127.0.0.1/app')).toBe(true)
    expect(isMysqlUrl('postgres://app@127.0.0.1/app')).toBe(false)
    expect(dialectOf(db)).toBe('mysql')
    expect(dialectOfBuilder(db.schema.createTable('probed'))).toBe('mysql')
    const other = createDatabase<any>(mariadb.url.replace(/^mysql:/, 'mariadb:'))
    try {
      const { rows } = await sql<{ one: number }>`select 1 as one`.execute(other)
      expect(rows).toEqual([{ one: 1 }])
    } finally {
      await other.destroy()
    }
  })

  it('writes booleans, JSON, Dates, bigints and decimals, and reads back the JSON of SQLite and PostgreSQL (select, sql, transaction)', async () => {
    await insertBoth()
    const rows = await db.selectFrom('things').selectAll().orderBy('id').execute()
    expect(JSON.stringify(rows)).toBe(EXPECTED_JSON)
    expect(rows[0]!.happened).toBeInstanceOf(Date)
    const { rows: raw } = await sql<Record<string, unknown>>`select * from things order by id`.execute(db)
    expect(JSON.stringify(raw)).toBe(EXPECTED_JSON)
    const inside = await db.transaction().execute((trx) => trx.selectFrom('things').selectAll().orderBy('id').execute())
    expect(JSON.stringify(inside)).toBe(EXPECTED_JSON)
  })

  it('compares booleans, Dates and JSON written as values', async () => {
    await insertBoth()
    const result = await db
      .updateTable('things')
      .set({ flag: false, maybe: false, list: ['x'], doc: { changed: true }, happened: new Date('2030-06-01T00:00:00.5Z') })
      .where('flag', '=', true)
      .executeTakeFirst()
    expect(result.numUpdatedRows).toBe(1n)
    const updated = await db.selectFrom('things').selectAll().where('id', '=', 1).executeTakeFirstOrThrow()
    expect(updated).toMatchObject({ flag: false, maybe: false, list: ['x'], doc: { changed: true }, happened: new Date('2030-06-01T00:00:00.500Z') })
    const later = await db.selectFrom('things').select('id').where('happened', '>', new Date('2029-01-01T00:00:00Z')).execute()
    expect(later).toEqual([{ id: 1 }])
    const flagged = await db.selectFrom('things').select(['id', 'flag']).where('maybe', '=', false).execute()
    expect(flagged).toEqual([{ id: 1, flag: false }])
  })

  it('fills created_at and updated_at with the current UTC time, to the millisecond, on a server whose zone is +05:45', async () => {
    const before = Date.now()
    const { insertId } = await db.insertInto('things').values({}).executeTakeFirstOrThrow()
    expect(insertId).toBe(1n)
    const row = await db.selectFrom('things').selectAll().executeTakeFirstOrThrow()
    expect(row).toMatchObject({ flag: false, maybe: null, doc: null, happened: null, big: null, price: null })
    expect(row.created_at).toBeInstanceOf(Date)
    expect(row.updated_at).toEqual(row.created_at)
    expect(Math.abs(row.created_at.getTime() - before)).toBeLessThan(60_000)
    const { rows } = await sql<{ stored: string; zone: string }>`select cast(created_at as char) as stored, @@session.time_zone as zone, @@global.time_zone as server from things`.execute(db)
    expect(rows[0]).toMatchObject({ zone: '+00:00', server: '+05:45' })
    expect(rows[0]!.stored).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/)
  })

  it('writes a Date as its UTC time whatever the process’s time zone', async () => {
    const zone = process.env.TZ
    process.env.TZ = 'America/New_York'
    try {
      expect(new Date('2024-02-29T12:00:00Z').getTimezoneOffset()).toBe(300)
      await db.insertInto('things').values({ happened: new Date('2024-02-29T12:34:56.789Z'), day: '2024-02-29' }).execute()
      const { rows } = await sql<{ stored: string }>`select cast(happened as char) as stored from things`.execute(db)
      expect(rows[0]!.stored).toBe('2024-02-29 12:34:56.789')
      const row = await db.selectFrom('things').select(['happened', 'day']).executeTakeFirstOrThrow()
      expect(JSON.stringify(row)).toBe('{"happened":"2024-02-29T12:34:56.789Z","day":"2024-02-29"}')
    } finally {
      if (zone === undefined) delete process.env.TZ
      else process.env.TZ = zone
    }
  })

  it('gives bigints past 2^53 and decimals as their exact digits, and counts as numbers', async () => {
    await insertBoth()
    const { rows } = await sql`select cast(9223372036854775807 as signed) as big, cast(18446744073709551615 as unsigned) as top,
      9007199254740991 as safe, cast(12345678901234567890.12 as decimal(22, 2)) as exact, (select count(*) from things) as total`.execute(db)
    expect(rows[0]).toEqual({ big: '9223372036854775807', top: '18446744073709551615', safe: 9007199254740991, exact: '12345678901234567890.12', total: 2 })
    const nulls = await db.selectFrom('things').select(['maybe', 'note']).where('id', '=', 2).executeTakeFirstOrThrow()
    expect(nulls).toEqual({ maybe: true, note: null })
  })

  it('runs each session under READ COMMITTED and strict mode, and refuses an invalid Date instead of storing NULL', async () => {
    const { rows } = await sql<{ isolation: string; mode: string }>`select @@session.tx_isolation as isolation, @@session.sql_mode as mode`.execute(db)
    expect(rows[0]!.isolation).toBe('READ-COMMITTED')
    expect(rows[0]!.mode.split(',')).toContain('STRICT_TRANS_TABLES')
    await expect(db.insertInto('things').values({ happened: new Date('not a date') }).execute()).rejects.toThrow(/Invalid Date/)
    // Strict mode refuses what MySQL would otherwise clip, with a warning no one reads.
    await expect(db.insertInto('things').values({ big: '99999999999999999999' }).execute()).rejects.toThrow(/Out of range value for column 'big'/)
    // A `text` column is `longtext`: past MySQL's 64 KB `text`, as SQLite and PostgreSQL take it.
    await db.insertInto('things').values({ note: 'x'.repeat(70_000) }).execute()
    const stored = await sql<{ size: number }>`select length(note) as size from things`.execute(db)
    expect(stored.rows).toEqual([{ size: 70_000 }])
  })
})

describe('the pool on MariaDB', () => {
  /** The sessions of the application's pool (every client session but the one asking). */
  async function sessions(): Promise<number> {
    const rows = await mariadb.query(`select id from information_schema.processlist where user = 'root' and id <> connection_id()`)
    return rows.length
  }

  it('closes a connection once it was idle for idleTimeoutMs, and keeps it with 0', async () => {
    const brief = createDatabase<any>(mariadb.url, { idleTimeoutMs: 300 })
    const kept = createDatabase<any>(mariadb.url, { idleTimeoutMs: 0, poolMax: 1 })
    try {
      await Promise.all([sql`select sleep(0.1)`.execute(brief), sql`select sleep(0.1)`.execute(brief), sql`select 1`.execute(kept)])
      expect(await sessions()).toBe(3)
      // mysql2 sweeps idle connections once a second.
      await new Promise((resolve) => setTimeout(resolve, 1800))
      expect(await sessions()).toBe(1)
      expect(await sql`select 1 as one`.execute(brief)).toMatchObject({ rows: [{ one: 1 }] })
    } finally {
      await brief.destroy()
      await kept.destroy()
    }
  })

  it('keeps an idle connection open within idleTimeoutMs, rather than closing every free one', async () => {
    const pooled = createDatabase<any>(mariadb.url, { idleTimeoutMs: 10_000 })
    try {
      await Promise.all([sql`select sleep(0.1)`.execute(pooled), sql`select sleep(0.1)`.execute(pooled)])
      await new Promise((resolve) => setTimeout(resolve, 1500))
      expect(await sessions()).toBe(2)
    } finally {
      await pooled.destroy()
    }
  })

  it('loads mysql2 from fw-runtime\'s own packages when the application has none', async () => {
    const { loadMysql2 } = await import('../../src/database/mysqlDialect.js')
    expect(loadMysql2('/nonexistent').createPool).toBeTypeOf('function')
  })
})
