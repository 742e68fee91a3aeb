import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql, type Kysely } from 'kysely'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createDatabase } from '../../src/database/createDatabase.js'
import { isMissingTable } from '../../src/database/createTables.js'
import { inspectMigrationLock, migrationLock } from '../../src/database/MigrationLock.js'
import { Migrator } from '../../src/database/Migrator.js'
import { startMariadb, type TestMariadb } from '../support/mariadb.js'

// The Migrator on a real MariaDB: batches, rollback, migrate:fresh (views and foreign keys in the way) and the
// migration lock, which is a named lock (GET_LOCK) of the run's one connection.

let mariadb: TestMariadb
let folder: string
let db: Kysely<any>
const migrations = () => join(folder, 'migrations')

beforeAll(async () => {
  mariadb = await startMariadb()
}, 60_000)
afterAll(() => mariadb?.stop())

beforeEach(async () => {
  folder = mkdtempSync(join(tmpdir(), 'fw-migrator-mysql-'))
  mkdirSync(migrations())
  db = createDatabase<any>(mariadb.url)
  await new Migrator({ db, folder: migrations() }).fresh()
  return async () => {
    await db.destroy()
    rmSync(folder, { recursive: true, force: true })
  }
})

function readMigration(name: string): string {
  return readFileSync(join(migrations(), `${name}.mjs`), 'utf8')
}

function migration(name: string, up: string, down = '') {
  writeFileSync(join(migrations(), `${name}.mjs`), `export async function up(db) { ${up} }\nexport async function down(db) { ${down} }\n`)
}

const USERS = `await db.schema.createTable('users').addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()).addColumn('email', 'varchar(255)', (c) => c.notNull().unique()).execute()`
const POSTS = `await db.schema.createTable('posts').addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()).addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade')).execute()
  await db.schema.createView('post_authors').as(db.selectFrom('posts').innerJoin('users', 'users.id', 'posts.user_id').select(['posts.id', 'users.email'])).execute()`

async function tables(): Promise<string[]> {
  const rows = await mariadb.query<{ name: string }>(`select TABLE_NAME as name from information_schema.TABLES where TABLE_SCHEMA = 'fw'`)
  return rows.map((row) => row.name).sort()
}

describe('Migrator on MariaDB', () => {
  it('applies batches, rolls back the last one, and records when each ran', async () => {
    migration('20240101000000_create_users_table', USERS, `await db.schema.dropTable('users').execute()`)
    migration('20240101000001_create_posts_table', POSTS, `await db.schema.dropView('post_authors').execute(); await db.schema.dropTable('posts').execute()`)
    const migrator = new Migrator({ db, folder: migrations() })

    const run = await migrator.migrate()
    expect(run.error).toBeUndefined()
    expect(run.results.map((result) => result.name)).toEqual(['20240101000000_create_users_table', '20240101000001_create_posts_table'])
    expect(await tables()).toEqual(['fw_migrations', 'post_authors', 'posts', 'users'])
    const recorded = await db.selectFrom('fw_migrations').select(['name', 'batch', 'migrated_at']).orderBy('id').execute()
    expect(recorded.map((row) => row.batch)).toEqual([1, 1])
    expect(Math.abs(recorded[0]!.migrated_at.getTime() - Date.now())).toBeLessThan(60_000)

    const back = await migrator.rollback({ steps: 1 })
    expect(back.error).toBeUndefined()
    expect(await tables()).toEqual(['fw_migrations', 'users'])
    expect((await migrator.status()).map((info) => [info.name, info.batch])).toEqual([
      ['20240101000000_create_users_table', 1],
      ['20240101000001_create_posts_table', undefined],
    ])
  })

  it('migrate:fresh drops every table and view, whatever refers to what, and runs every migration again', async () => {
    migration('20240101000000_create_users_table', USERS)
    migration('20240101000001_create_posts_table', POSTS)
    await new Migrator({ db, folder: migrations() }).migrate()
    await sql`create table strays (id integer primary key, user_id integer references users (id))`.execute(db)
    await db.insertInto('users').values({ email: 'a@x' }).execute()

    const run = await new Migrator({ db, folder: migrations() }).fresh()
    expect(run.error).toBeUndefined()
    expect(await tables()).toEqual(['fw_migrations', 'post_authors', 'posts', 'users'])
    expect(await db.selectFrom('users').selectAll().execute()).toEqual([])
    const checks = await sql<{ on: number }>`select @@foreign_key_checks as ${sql.id('on')}`.execute(db)
    expect(checks.rows).toEqual([{ on: 1 }])
  })

  it('reports a failed migration and keeps the ones before it', async () => {
    migration('20240101000000_create_users_table', USERS)
    migration('20240101000001_create_posts_table', `await db.schema.createTable('posts').addColumn('id', 'text', (c) => c.primaryKey()).execute()`)
    const run = await new Migrator({ db, folder: migrations() }).migrate()
    expect(run.results.map((result) => result.name)).toEqual(['20240101000000_create_users_table'])
    expect(run.error?.message).toMatch(/^20240101000001_create_posts_table: BLOB\/TEXT column 'id' used in key specification without a key length/)
    expect(await tables()).toEqual(['fw_migrations', 'users'])
  })

  it('names the schema statements a failed migration ran, which MySQL committed and cannot undo', async () => {
    migration(
      '20240101000000_create_parts_table',
      `await db.schema.createTable('parts').addColumn('id', 'integer', (c) => c.primaryKey()).execute()
      await sql\`create index parts_id on parts (id)\`.execute(db)
      await db.insertInto('parts').values({ id: 1 }).execute()
      await db.insertInto('no_such_table').values({ id: 1 }).execute()`,
    )
    writeFileSync(join(migrations(), '20240101000000_create_parts_table.mjs'), `import { sql } from 'kysely'\n` + readMigration('20240101000000_create_parts_table'))
    const run = await new Migrator({ db, folder: migrations() }).migrate()
    expect(run.error?.message).toBe(
      "20240101000000_create_parts_table: Table 'fw.no_such_table' doesn't exist. MySQL cannot undo schema changes: these statements of it ran and stay applied: " +
        'create table `parts` (`id` integer primary key); create index parts_id on parts (id). Undo them by hand, or make the migration skip what exists, then run fw migrate again',
    )
    expect(await tables()).toEqual(['fw_migrations', 'parts'])
  })

  it('waits for the named lock another run holds, names its connection, and --force ends that session', async () => {
    migration('20240101000000_create_users_table', USERS)
    const other = createDatabase<any>(mariadb.url)
    try {
      await other.connection().execute(async (held) => {
        const lock = migrationLock(held)
        await lock.acquire()
        const { rows } = await sql<{ id: number }>`select connection_id() as id`.execute(held)
        const started = Date.now()
        const run = await new Migrator({ db, folder: migrations(), lockTimeout: 1000 }).migrate()
        expect(Date.now() - started).toBeGreaterThanOrEqual(900)
        expect(run.error?.message).toBe(`Another fw migrate (MySQL connection ${rows[0]!.id}) still holds the migration lock`)
        expect(await tables()).toEqual(['fw_migrations'])

        const seen = await inspectMigrationLock(db)
        expect(seen).toMatchObject({ holder: { owner: `MySQL connection ${rows[0]!.id}`, stale: false }, cleared: false })
        expect(await inspectMigrationLock(db, { clear: true, force: true })).toMatchObject({ cleared: true })
        expect(await inspectMigrationLock(db)).toEqual({ holder: undefined, cleared: false })
      }).catch((error: unknown) => {
        // The held connection was killed by --force; kysely's release of it may report that.
        if (!String(error).includes('Service Unavailable')) throw error
      })
      const run = await new Migrator({ db, folder: migrations(), lockTimeout: 1000 }).migrate()
      expect(run.error).toBeUndefined()
      expect(await tables()).toEqual(['fw_migrations', 'users'])
    } finally {
      await other.destroy()
    }
  })

  it('knows a missing table by its error', async () => {
    const error = await db.selectFrom('fw_nothing').selectAll().execute().catch((caught: unknown) => caught)
    expect(isMissingTable(error, 'fw_nothing')).toBe(true)
    expect(isMissingTable(error, 'nothing')).toBe(false)
  })
})
