import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { sql, type Kysely } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createDatabase } from '../../src/database/createDatabase.js'
import { MigrationError, Migrator } from '../../src/database/Migrator.js'

let folder: string
let db: Kysely<any>
const migrations = () => join(folder, 'migrations')

/** A migration file in plain JavaScript: this test needs no TypeScript loader. */
function migration(name: string, body = `await db.schema.createTable('${name.replace(/^\d+_create_|_table$/g, '')}').addColumn('id', 'integer', (c) => c.primaryKey()).execute()`, down = true) {
  const table = name.replace(/^\d+_create_|_table$/g, '')
  writeFileSync(
    join(migrations(), `${name}.mjs`),
    `export async function up(db) { ${body} }\n` + (down ? `export async function down(db) { await db.schema.dropTable('${table}').execute() }\n` : ''),
  )
}

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'fw-migrator-'))
  mkdirSync(migrations())
  db = createDatabase(`sqlite:${join(folder, 'app.sqlite')}`)
})
afterEach(async () => {
  await db.destroy()
  rmSync(folder, { recursive: true, force: true })
})

describe('Migrator', () => {
  it('returns what ran, and the error instead of throwing', async () => {
    migration('20240101000000_create_a_table')
    migration('20240101000001_create_b_table', 'throw new Error("boom")')
    const migrator = new Migrator({ db, folder: migrations() })

    const run = await migrator.migrate()

    expect(run.results.map((result) => [result.name, result.direction])).toEqual([['20240101000000_create_a_table', 'up']])
    expect(run.error).toBeInstanceOf(MigrationError)
    expect(run.error).toMatchObject({ migration: '20240101000001_create_b_table', message: '20240101000001_create_b_table: boom' })
  })

  it('applies nothing when a pending migration cannot be loaded', async () => {
    migration('20240101000000_create_a_table')
    writeFileSync(join(migrations(), '20240101000001_broken.mjs'), 'export async function up(db) { this is not javascript }\n')
    writeFileSync(join(migrations(), '20240101000002_no_up.mjs'), 'export const nothing = 1\n')

    const run = await new Migrator({ db, folder: migrations() }).migrate()

    expect(run.results).toEqual([])
    expect(run.error?.message).toMatch(/^20240101000001_broken could not be loaded: /)
    expect((await db.introspection.getTables()).map((table) => table.name)).not.toContain('a')
  })

  it('refuses a migration without up()', async () => {
    writeFileSync(join(migrations(), '20240101000002_no_up.mjs'), 'export const nothing = 1\n')
    const run = await new Migrator({ db, folder: migrations() }).migrate()
    expect(run.error?.message).toBe('20240101000002_no_up exports no up(db) function')
  })

  it('shows a recorded migration whose file is gone, and will not roll it back', async () => {
    migration('20240101000000_create_a_table')
    const migrator = new Migrator({ db, folder: migrations() })
    await migrator.migrate()
    unlinkSync(join(migrations(), '20240101000000_create_a_table.mjs'))

    expect(await migrator.status()).toEqual([{ name: '20240101000000_create_a_table', batch: 1, hasFile: false }])
    const run = await migrator.rollback()
    expect(run.error?.message).toBe(`20240101000000_create_a_table: its file is missing from ${migrations()}, so it cannot be rolled back`)
  })

  it('takes over a lock left by a process that has ended', async () => {
    migration('20240101000000_create_a_table')
    await sql`create table fw_migrations_lock (id integer primary key, owner text not null, locked_at text not null)`.execute(db)
    await sql`insert into fw_migrations_lock values (1, ${`${hostname()}:2147483646`}, '2024-01-01')`.execute(db)

    const run = await new Migrator({ db, folder: migrations() }).migrate()

    expect(run.error).toBeUndefined()
    expect(run.results).toHaveLength(1)
    expect((await sql`select * from fw_migrations_lock`.execute(db)).rows).toEqual([])
  })

  it('waits for a lock held by a live process, then gives up with a clear error', async () => {
    migration('20240101000000_create_a_table')
    await sql`create table fw_migrations_lock (id integer primary key, owner text not null, locked_at text not null, expires_at integer)`.execute(db)
    await sql`insert into fw_migrations_lock values (1, ${`${hostname()}:${process.ppid}`}, '2024-01-01T00:00:00Z', ${Date.now() + 60_000})`.execute(db)

    const run = await new Migrator({ db, folder: migrations(), lockTimeout: 300 }).migrate()

    expect(run.results).toEqual([])
    expect(run.error?.message).toBe(`Another fw migrate (${hostname()}:${process.ppid}, since 2024-01-01T00:00:00Z) still holds the migration lock`)
    expect((await db.introspection.getTables()).map((table) => table.name)).not.toContain('a')
  })

  it('takes over a lock whose lease ran out although a live process now has its PID', async () => {
    migration('20240101000000_create_a_table')
    await sql`create table fw_migrations_lock (id integer primary key, owner text not null, locked_at text not null, expires_at integer)`.execute(db)
    // A fw migrate killed with -9, its PID since given to another process (here: this one's parent).
    await sql`insert into fw_migrations_lock values (1, ${`${hostname()}:${process.ppid}`}, '2024-01-01T00:00:00Z', ${Date.now() - 1})`.execute(db)

    const run = await new Migrator({ db, folder: migrations(), lockTimeout: 300 }).migrate()

    expect(run.error).toBeUndefined()
    expect(run.results).toHaveLength(1)
    expect((await sql`select * from fw_migrations_lock`.execute(db)).rows).toEqual([])
  })

  it('renews its lease while it runs, so a second run never takes over a live one', async () => {
    migration('20240101000000_create_a_table')
    // Loading outlasts the lease several times over, and holds no SQLite write lock: only renewals keep the lock.
    const slowLoad = async (file: string) => {
      await new Promise((resolve) => setTimeout(resolve, 800))
      return import(pathToFileURL(file).href)
    }
    const other = createDatabase(`sqlite:${join(folder, 'app.sqlite')}`)
    try {
      const first = new Migrator({ db, folder: migrations(), lockLease: 200, load: slowLoad }).migrate()
      await new Promise((resolve) => setTimeout(resolve, 100))
      const second = await new Migrator({ db: other, folder: migrations(), lockLease: 200 }).migrate()
      const done = await first

      expect(done.error).toBeUndefined()
      expect(done.results.map((result) => result.name)).toEqual(['20240101000000_create_a_table'])
      expect(second).toEqual({ results: [] })
    } finally {
      await other.destroy()
    }
  })

  it('runs afterRun under the lock after a run that succeeded, and never after one that failed', async () => {
    migration('20240101000000_create_a_table')
    const seen: string[] = []
    const afterRun = async (connection: Kysely<any>) => {
      const held = await sql<{ owner: string }>`select owner from fw_migrations_lock`.execute(connection)
      const tables = (await connection.introspection.getTables()).map((table) => table.name)
      seen.push(`${held.rows.length} lock, a ${tables.includes('a') ? 'exists' : 'is gone'}`)
    }
    const migrator = new Migrator({ db, folder: migrations(), afterRun })

    expect((await migrator.migrate()).error).toBeUndefined()
    expect((await migrator.rollback()).error).toBeUndefined()
    migration('20240101000001_create_b_table', 'throw new Error("boom")')
    expect((await migrator.migrate()).error?.message).toBe('20240101000001_create_b_table: boom')

    expect(seen).toEqual(['1 lock, a exists', '1 lock, a is gone'])
  })

  it('ignores declaration files beside the migrations', async () => {
    migration('20240101000000_create_a_table')
    writeFileSync(join(migrations(), '20240101000000_create_a_table.d.ts'), 'export {}\n')
    expect((await new Migrator({ db, folder: migrations() }).status()).map((entry) => entry.name)).toEqual(['20240101000000_create_a_table'])
  })
})
