import { execFileSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { sql, type Kysely } from 'kysely'
import { appRoot } from '../config/appRoot.js'
import { readEnvFile } from '../config/loadEnv.js'
import { createDatabase } from '../database/createDatabase.js'
import { dialectOf } from '../database/dialectOf.js'
import { MIGRATIONS_LOCK_TABLE } from '../database/MigrationLock.js'
import { MIGRATIONS_TABLE } from '../database/Migrator.js'
import { db } from '../database/db.js'

/** Where `testDatabase()` leaves the run's migrated database for `workerDatabase()` to copy. */
const TEMPLATE = 'FW_TEST_DATABASE_URL'
const POSTGRES = /^postgres(ql)?:\/\//

/**
 * The tests' own database for one test run, as a vitest `globalSetup`: migrated once, never the development one.
 * On SQLite (the default) a fresh file in a temporary folder, removed at the end; on PostgreSQL (when the app's
 * `DATABASE_URL` names it) the database `<name>_test` on the same server, created when missing and migrated from
 * scratch (`fw migrate:fresh`) at each run. `TEST_DATABASE_URL` names another one. The app's own `fw migrate` does the
 * migrating, so the migrations run as they do in development. With `workerDatabase()` in the setup files, each test
 * worker gets a copy of it; without, every test uses it through `DATABASE_URL`. Returns the teardown.
 *
 * @example
 * ```ts
 * // tests/database.ts, vitest.config.ts's globalSetup
 * export { testDatabase as default } from 'fw-runtime/testing'
 * ```
 */
export async function testDatabase(): Promise<() => Promise<void>> {
  const root = appRoot()
  const development = process.env.DATABASE_URL ?? readEnvFile(join(root, '.env')).DATABASE_URL
  const given = process.env.TEST_DATABASE_URL
  const url = given || (development && POSTGRES.test(development) ? withDatabase(development, `${databaseName(development)}_test`) : undefined)
  if (url === undefined) return sqliteTemplate(root)
  if (!POSTGRES.test(url)) throw new Error(`TEST_DATABASE_URL "${url}" is not a PostgreSQL URL: leave it out for a SQLite file of the run's own`)
  if (url === development) throw new Error('TEST_DATABASE_URL is the development DATABASE_URL: the tests would empty it. Name a database of their own')
  return postgresTemplate(root, url)
}

/**
 * Gives this test worker a copy of the run's test database (made by `testDatabase()`), in `DATABASE_URL`: test files
 * that run side by side never see each other's rows, and `refreshDatabase()` empties only this worker's tables. For
 * vitest's `setupFiles`; the copy is made on the worker's first test file and kept for its next ones.
 *
 * @example
 * ```ts
 * // tests/setup.ts, vitest.config.ts's setupFiles
 * await workerDatabase()
 * ```
 */
export async function workerDatabase(): Promise<void> {
  const template = process.env[TEMPLATE]
  if (!template) throw new Error("workerDatabase() copies the run's test database: name testDatabase() as vitest's globalSetup (tests/database.ts)")
  // vitest numbers its workers from 1; files that run at the same time never share a number.
  const worker = process.env.VITEST_POOL_ID ?? '1'
  if (!POSTGRES.test(template)) {
    const file = join(dirname(sqliteFile(template)), `worker-${worker}.sqlite`)
    if (!existsSync(file)) copyFileSync(sqliteFile(template), file)
    process.env.DATABASE_URL = `sqlite:${file}`
    return
  }
  const name = `${databaseName(template)}_${worker}`
  const url = withDatabase(template, name)
  if (process.env.DATABASE_URL === url) return
  const server = createDatabase(template)
  try {
    const { rows } = await sql<{ found: number }>`select 1 as found from pg_database where datname = ${name}`.execute(server)
    if (rows.length === 0) await sql`create database ${sql.id(name)} template ${sql.id(databaseName(template))}`.execute(server)
  } finally {
    await server.destroy()
  }
  process.env.DATABASE_URL = url
}

/**
 * Empties every table of the application's database but the migrator's own, as Laravel's `DatabaseTruncation`: for
 * `beforeEach`, so that each test starts from the migrated schema with no rows, whatever the tests before it wrote.
 * Keys start again from 1. Meant for the tests' own database (`testDatabase()`): never call it on another.
 *
 * @example
 * ```ts
 * beforeEach(refreshDatabase)
 * ```
 */
export async function refreshDatabase(): Promise<void> {
  const template = process.env[TEMPLATE]
  const url = process.env.DATABASE_URL
  if (!template || !url || !isCopyOf(url, template)) {
    throw new Error(
      `refreshDatabase() empties only the tests' own database, and DATABASE_URL is not one: name testDatabase() as vitest's globalSetup (tests/database.ts) and workerDatabase() in its setupFiles (tests/setup.ts)`,
    )
  }
  const database = db() as Kysely<any>
  const tables = await ownTables(database)
  if (tables.length === 0) return
  if (dialectOf(database) === 'postgres') {
    await sql`truncate table ${sql.join(tables.map((table) => sql.id(table)))} restart identity cascade`.execute(database)
    return
  }
  await database.transaction().execute(async (trx) => {
    // Foreign keys are checked at the commit, when every table is empty, whatever order they are emptied in.
    await sql`pragma defer_foreign_keys = on`.execute(trx)
    for (const table of tables) await sql`delete from ${sql.id(table)}`.execute(trx)
    const sequences = await sql`select 1 from sqlite_master where name = 'sqlite_sequence'`.execute(trx)
    if (sequences.rows.length > 0) await sql`delete from sqlite_sequence`.execute(trx)
  })
}

/** Whether a database URL is the run's test database (the template testDatabase() made) or a worker's copy of it. */
function isCopyOf(url: string, template: string): boolean {
  if (url === template) return true
  if (!POSTGRES.test(template)) return dirname(sqliteFile(url)) === dirname(sqliteFile(template))
  const name = databaseName(template)
  return POSTGRES.test(url) && isWorkerCopy(databaseName(url), name) && url === withDatabase(template, databaseName(url))
}

/** `blog_test_2` is a worker's copy of `blog_test`. */
function isWorkerCopy(candidate: string, name: string): boolean {
  return candidate.startsWith(`${name}_`) && /^\d+$/.test(candidate.slice(name.length + 1))
}

/**
 * The application's tables, without the migrator's bookkeeping, on either database. On PostgreSQL only those of the
 * current schema, which the app's unqualified names reach: another tool's schema (pg-boss's) is not the app's.
 */
async function ownTables(database: Kysely<any>): Promise<string[]> {
  const bookkeeping = new Set([MIGRATIONS_TABLE, MIGRATIONS_LOCK_TABLE])
  const tables = await database.introspection.getTables()
  const schema = dialectOf(database) === 'postgres' ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(database)).rows[0]?.schema : undefined
  return tables.filter((table) => !table.isView && table.schema === schema && !bookkeeping.has(table.name)).map((table) => table.name)
}

/** A fresh SQLite file migrated by the app's fw migrate; the teardown removes its folder (and the workers' copies). */
function sqliteTemplate(root: string): () => Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'fw-test-database-'))
  const url = `sqlite:${join(folder, 'database.sqlite')}`
  try {
    migrate(root, url, ['migrate', '--no-types'])
  } catch (error) {
    rmSync(folder, { recursive: true, force: true })
    throw error
  }
  process.env.DATABASE_URL = url
  process.env[TEMPLATE] = url
  return async () => rmSync(folder, { recursive: true, force: true })
}

/** `<name>_test` on the app's PostgreSQL server, created when missing and migrated afresh; the workers' copies dropped. */
async function postgresTemplate(root: string, url: string): Promise<() => Promise<void>> {
  const name = databaseName(url)
  await onServer(url, async (server) => {
    await dropCopies(server, name)
    const { rows } = await sql`select 1 from pg_database where datname = ${name}`.execute(server)
    if (rows.length === 0) await sql`create database ${sql.id(name)}`.execute(server)
  })
  migrate(root, url, ['migrate:fresh', '--force', '--no-types'])
  process.env.DATABASE_URL = url
  process.env[TEMPLATE] = url
  return () => onServer(url, (server) => dropCopies(server, name))
}

/** Runs work on the server of a PostgreSQL URL, connected to its `postgres` database (a test database may not exist yet). */
async function onServer(url: string, work: (server: Kysely<any>) => Promise<void>): Promise<void> {
  const server = createDatabase(withDatabase(url, 'postgres'))
  try {
    await work(server)
  } finally {
    await server.destroy()
  }
}

/** Drops the copies `workerDatabase()` made of a test database (`<name>_1`, `<name>_2`, …), from this run or one that died. */
async function dropCopies(server: Kysely<any>, name: string): Promise<void> {
  const { rows } = await sql<{ datname: string }>`select datname from pg_database where starts_with(datname, ${`${name}_`})`.execute(server)
  for (const { datname } of rows) {
    if (isWorkerCopy(datname, name)) await sql`drop database if exists ${sql.id(datname)} with (force)`.execute(server)
  }
}

/**
 * The app's own `fw` (its installed fw-runtime's) on the test database; a failure carries fw's output. `--no-types`:
 * database/schema.d.ts is the development database's to write.
 */
function migrate(root: string, url: string, args: string[]): void {
  const fw = join(dirname(createRequire(join(root, 'package.json')).resolve('fw-runtime/package.json')), 'dist/cli/fw.js')
  try {
    execFileSync(process.execPath, [fw, ...args], { cwd: root, env: { ...process.env, DATABASE_URL: url }, stdio: 'pipe' })
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: Buffer; stderr?: Buffer }
    throw new Error(`The test database could not be migrated (fw ${args[0]}):\n${`${stdout}${stderr}`.trim() || (error as Error).message}`)
  }
}

function sqliteFile(url: string): string {
  return url.replace(/^(sqlite|file):(\/\/)?/, '')
}

function databaseName(url: string): string {
  return decodeURIComponent(new URL(url).pathname.slice(1))
}

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url)
  parsed.pathname = `/${encodeURIComponent(name)}`
  return parsed.toString()
}
