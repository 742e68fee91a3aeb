import { existsSync, readdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { sql, type Kysely } from 'kysely'
import { id } from './columns.js'
import { DatabaseUnavailableError } from './DatabaseUnavailableError.js'
import { dialectOf } from './dialectOf.js'
import { MIGRATIONS_LOCK_TABLE, migrationLock, type MigrationLock } from './MigrationLock.js'
import { SchemaChangeLog } from './SchemaChangeLog.js'

/** Where an application keeps its migrations. */
export const MIGRATIONS_FOLDER = 'database/migrations'
/** The table that records which migrations ran, and in which batch. */
export const MIGRATIONS_TABLE = 'fw_migrations'

/** What a migration file exports. */
export interface Migration {
  up(db: Kysely<any>): Promise<void>
  down?(db: Kysely<any>): Promise<void>
}

export interface MigratorOptions {
  db: Kysely<any>
  /** Default `database/migrations` under the current directory. */
  folder?: string
  /** Imports a migration file; the `fw` command passes one that understands TypeScript. */
  load?: (file: string) => Promise<unknown>
  /** How long to wait for another run's lock on SQLite, in milliseconds (default 60 s). */
  lockTimeout?: number
  /** How long the SQLite lock lasts without renewal, in milliseconds (default 20 s): a dead owner's lock is taken over after it. */
  lockLease?: number
  /**
   * Runs under the lock after a migrate, rollback, reset or fresh that succeeded: `fw migrate` writes the schema's
   * types there, so a run that waited for the lock finds them written. It must not throw: what it throws becomes
   * the run's error, though its migrations stay applied.
   */
  afterRun?: (db: Kysely<any>) => Promise<void>
}

/** One migration as `migrate:status` shows it: `batch` is undefined while it is pending. */
export interface MigrationInfo {
  name: string
  batch: number | undefined
  /** False when the database recorded a migration whose file is gone. */
  hasFile: boolean
}

/** One migration applied (`up`) or rolled back (`down`) and how long it took. */
export interface MigrationResult {
  name: string
  direction: 'up' | 'down'
  ms: number
}

/** What a run did. On failure, `results` holds what completed before `error`, which names its migration when it has one. */
export interface MigrationRun {
  results: MigrationResult[]
  error?: MigrationError
}

/** MySQL's `timestamp` is Fw's `datetime(3)`, whose default must have the same precision on MySQL 8. */
const MYSQL_NOW = sql`CURRENT_TIMESTAMP(3)`

/** A run stopped: `migration` names the one that failed, when one did. */
export class MigrationError extends Error {
  readonly migration: string | undefined
  constructor(message: string, migration?: string, options?: ErrorOptions) {
    super(message, options)
    this.name = 'MigrationError'
    this.migration = migration
  }
}

interface MigrationFile {
  name: string
  file: string
}

interface Recorded {
  name: string
  batch: number
}

const EXTENSIONS = ['.ts', '.mts', '.js', '.mjs']

/**
 * Runs an application's migrations with Laravel's semantics: every `migrate` is a batch, rollback
 * undoes the last batch, each migration runs in its own transaction (so a failure leaves nothing
 * half-applied and keeps the ones before it), and a lock keeps concurrent runs apart.
 *
 * @example
 * ```ts
 * const { results, error } = await new Migrator({ db }).migrate()
 * ```
 */
export class Migrator {
  private readonly db: Kysely<any>
  private readonly folder: string
  private readonly load: (file: string) => Promise<unknown>
  private readonly lockTimeout: number | undefined
  private readonly lockLease: number | undefined
  private readonly afterRun: ((db: Kysely<any>) => Promise<void>) | undefined
  /** The lock of the run under way, renewed inside each migration's transaction. */
  private lock: MigrationLock | undefined

  constructor(options: MigratorOptions) {
    this.db = options.db
    this.folder = resolve(options.folder ?? MIGRATIONS_FOLDER)
    this.load = options.load ?? ((file) => import(pathToFileURL(file).href))
    this.lockTimeout = options.lockTimeout
    this.lockLease = options.lockLease
    this.afterRun = options.afterRun
  }

  /**
   * Every migration, files and records together, by name. `readOnly` reads the records without taking
   * the lock or creating the table (none yet means nothing ran): for a page of a running application.
   *
   * @example
   * ```ts
   * const pending = (await new Migrator({ db: db() }).status({ readOnly: true })).filter((m) => m.batch === undefined)
   * ```
   */
  async status(options: { readOnly?: boolean } = {}): Promise<MigrationInfo[]> {
    const rows = options.readOnly ? await this.recordedIfAny() : await this.locked((db) => this.recorded(db))
    const recorded = new Map(rows.map((row) => [row.name, row.batch]))
    const files = this.files().map((file) => file.name)
    const names = new Set([...files, ...recorded.keys()])
    const onDisk = new Set(files)
    return [...names].sort().map((name) => ({ name, batch: recorded.get(name), hasFile: onDisk.has(name) }))
  }

  /** Applies every pending migration as one new batch. */
  async migrate(): Promise<MigrationRun> {
    return this.run((db) => this.applyPending(db))
  }

  /** Rolls back the last batch, or the last `steps` migrations. */
  async rollback(options: { steps?: number } = {}): Promise<MigrationRun> {
    return this.run(async (db) => {
      const recorded = await this.recorded(db)
      const last = recorded.at(-1)?.batch
      const chosen = options.steps === undefined ? recorded.filter((row) => row.batch === last) : recorded.slice(-options.steps)
      return this.rollBack(db, chosen.reverse())
    })
  }

  /** Rolls back every migration, newest first. */
  async reset(): Promise<MigrationRun> {
    return this.run(async (db) => this.rollBack(db, (await this.recorded(db)).reverse()))
  }

  /**
   * Drops every table and view (and on PostgreSQL the schema's enum types and domains, on MariaDB its sequences), then
   * applies every migration.
   */
  async fresh(): Promise<MigrationRun> {
    return this.run(async (db) => {
      await dropEverything(db)
      await this.createTable(db)
      return this.applyPending(db)
    })
  }

  private async applyPending(db: Kysely<any>): Promise<MigrationResult[]> {
    const recorded = await this.recorded(db)
    const done = new Set(recorded.map((row) => row.name))
    const pending = this.files().filter((file) => !done.has(file.name))
    // Loaded side by side, but a failure is reported for the first migration in order, whichever failed first.
    const loaded = await Promise.allSettled(pending.map((file) => this.module(file)))
    const failed = loaded.find((result) => result.status === 'rejected')
    if (failed) throw failed.reason
    const modules = loaded.map((result) => (result as PromiseFulfilledResult<Migration>).value)
    const batch = (recorded.at(-1)?.batch ?? 0) + 1
    const results: MigrationResult[] = []
    for (const [index, file] of pending.entries()) {
      const migration = modules[index]!
      const started = performance.now()
      // MySQL commits each schema statement at once: what a failed migration changed stays, and is named.
      let log: SchemaChangeLog | undefined
      try {
        await db.transaction().execute(async (trx) => {
          if (dialectOf(trx) === 'mysql') log = new SchemaChangeLog((node, queryId) => trx.getExecutor().compileQuery(node, queryId))
          await migration.up(log ? trx.withPlugin(log) : trx)
          await this.lock?.renew(trx)
          await trx.insertInto(MIGRATIONS_TABLE).values({ name: file.name, batch }).execute()
        })
      } catch (error) {
        const applied = log?.statements.length
          ? `. MySQL cannot undo schema changes: these statements of it ran and stay applied: ${log.statements.join('; ')}. Undo them by hand, or make the migration skip what exists, then run fw migrate again`
          : ''
        throw new MigrationFailed(results, new MigrationError(`${file.name}: ${messageOf(error)}${applied}`, file.name, { cause: error }))
      }
      results.push({ name: file.name, direction: 'up', ms: performance.now() - started })
    }
    return results
  }

  private async rollBack(db: Kysely<any>, rows: Recorded[]): Promise<MigrationResult[]> {
    const files = new Map(this.files().map((file) => [file.name, file]))
    const modules: Migration[] = []
    // Check every migration before undoing any, so that a missing file or `down` changes nothing.
    for (const row of rows) {
      const file = files.get(row.name)
      if (!file) throw new MigrationError(`${row.name}: its file is missing from ${this.folder}, so it cannot be rolled back`, row.name)
      const migration = await this.module(file)
      if (typeof migration.down !== 'function') {
        throw new MigrationError(`${row.name} has no down() function, so it cannot be rolled back`, row.name)
      }
      modules.push(migration)
    }
    const results: MigrationResult[] = []
    for (const [index, row] of rows.entries()) {
      const started = performance.now()
      try {
        await db.transaction().execute(async (trx) => {
          await modules[index]!.down!(trx)
          await this.lock?.renew(trx)
          await trx.deleteFrom(MIGRATIONS_TABLE).where('name', '=', row.name).execute()
        })
      } catch (error) {
        throw new MigrationFailed(results, new MigrationError(`${row.name}: ${messageOf(error)}`, row.name, { cause: error }))
      }
      results.push({ name: row.name, direction: 'down', ms: performance.now() - started })
    }
    return results
  }

  /** Runs work under the lock and turns failures into `{ results, error }`. */
  private async run(work: (db: Kysely<any>) => Promise<MigrationResult[]>): Promise<MigrationRun> {
    try {
      return {
        results: await this.locked(async (db) => {
          const results = await work(db)
          await this.afterRun?.(db)
          return results
        }),
      }
    } catch (error) {
      if (error instanceof MigrationFailed) return { results: error.results, error: error.error }
      if (error instanceof MigrationError) return { results: [], error }
      return { results: [], error: new MigrationError(messageOf(error), undefined, { cause: error }) }
    }
  }

  /** One connection for the whole run: PostgreSQL's advisory lock belongs to a session. */
  private async locked<R>(work: (db: Kysely<any>) => Promise<R>): Promise<R> {
    return this.db.connection().execute(async (connection) => {
      const lock = migrationLock(connection, this.lockTimeout, this.lockLease)
      await lock.acquire()
      this.lock = lock
      try {
        await this.createTable(connection)
        return await work(connection)
      } finally {
        this.lock = undefined
        await lock.release()
      }
    })
  }

  private async createTable(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable(MIGRATIONS_TABLE)
      .ifNotExists()
      .$call(id(db))
      .addColumn('name', 'varchar(255)', (column) => column.notNull().unique())
      .addColumn('batch', 'integer', (column) => column.notNull())
      .addColumn('migrated_at', 'timestamp', (column) => column.notNull().defaultTo(dialectOf(db) === 'mysql' ? MYSQL_NOW : sql`CURRENT_TIMESTAMP`))
      .execute()
  }

  private async recordedIfAny(): Promise<Recorded[]> {
    const tables = await this.db.introspection.getTables()
    return tables.some((table) => table.name === MIGRATIONS_TABLE) ? this.recorded(this.db) : []
  }

  private async recorded(db: Kysely<any>): Promise<Recorded[]> {
    return db.selectFrom(MIGRATIONS_TABLE).select(['name', 'batch']).orderBy('batch').orderBy('name').execute() as Promise<Recorded[]>
  }

  private files(): MigrationFile[] {
    if (!existsSync(this.folder)) return []
    const byName = new Map<string, MigrationFile>()
    const entries = readdirSync(this.folder).filter((entry) => !entry.endsWith('.d.ts') && !entry.endsWith('.d.mts'))
    for (const extension of EXTENSIONS) {
      for (const entry of entries) {
        if (!entry.endsWith(extension)) continue
        const name = entry.slice(0, -extension.length)
        if (!byName.has(name)) byName.set(name, { name, file: join(this.folder, entry) })
      }
    }
    return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  }

  private async module(file: MigrationFile): Promise<Migration> {
    let loaded: unknown
    try {
      loaded = await this.load(file.file)
    } catch (error) {
      throw new MigrationError(`${file.name} could not be loaded: ${messageOf(error)}`, file.name, { cause: error })
    }
    const migration = loaded as Partial<Migration>
    if (typeof migration.up !== 'function') throw new MigrationError(`${file.name} exports no up(db) function`, file.name)
    return migration as Migration
  }
}

/** Carries the migrations that completed before one failed out of the locked section. */
class MigrationFailed extends Error {
  constructor(
    readonly results: MigrationResult[],
    readonly error: MigrationError,
  ) {
    super(error.message)
  }
}

async function dropEverything(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'mysql') return dropEverythingOnMysql(db)
  if (dialectOf(db) === 'postgres') {
    const views = await sql<{ name: string }>`select viewname as name from pg_views where schemaname = current_schema()`.execute(db)
    for (const view of views.rows) await sql`drop view if exists ${sql.id(view.name)} cascade`.execute(db)
    const tables = await sql<{ name: string }>`select tablename as name from pg_tables where schemaname = current_schema()`.execute(db)
    for (const table of tables.rows) await sql`drop table if exists ${sql.id(table.name)} cascade`.execute(db)
    // The enums and domains that migrations created, or running them again fails on `create type`; an extension's stay.
    const types = await sql<{ name: string; kind: string }>`
      select t.typname as name, t.typtype as kind from pg_type as t join pg_namespace as n on n.oid = t.typnamespace
      where n.nspname = current_schema() and t.typtype in ('e', 'd')
        and not exists (select 1 from pg_depend as d where d.objid = t.oid and d.deptype = 'e')`.execute(db)
    for (const type of types.rows) await sql`drop ${sql.raw(type.kind === 'd' ? 'domain' : 'type')} if exists ${sql.id(type.name)} cascade`.execute(db)
    return
  }
  const objects = await sql<{ name: string; type: string }>`select name, type from sqlite_master where type in ('table', 'view') and name not like 'sqlite_%' and name != ${MIGRATIONS_LOCK_TABLE}`.execute(db)
  await sql`pragma foreign_keys = off`.execute(db)
  try {
    for (const object of objects.rows) {
      await sql`drop ${sql.raw(object.type === 'view' ? 'view' : 'table')} if exists ${sql.id(object.name)}`.execute(db)
    }
  } finally {
    await sql`pragma foreign_keys = on`.execute(db)
  }
}

/**
 * MySQL: the database's views, tables and (MariaDB) sequences, on the run's one connection with foreign key checks off
 * for its session, so that the order does not matter. Stored routines and events stay, as PostgreSQL's functions do.
 */
async function dropEverythingOnMysql(db: Kysely<any>): Promise<void> {
  const { rows } = await sql<{ name: string; type: string }>`select TABLE_NAME as name, TABLE_TYPE as type from information_schema.TABLES where TABLE_SCHEMA = database()`.execute(db)
  const named = (type: string) => rows.filter((row) => row.type === type).map((row) => sql.id(row.name))
  await sql`set foreign_key_checks = 0`.execute(db)
  try {
    for (const [kind, names] of [['view', named('VIEW')], ['table', named('BASE TABLE')], ['sequence', named('SEQUENCE')]] as const) {
      if (names.length > 0) await sql`drop ${sql.raw(kind)} if exists ${sql.join(names)}`.execute(db)
    }
  } finally {
    await sql`set foreign_key_checks = 1`.execute(db)
  }
}

function messageOf(error: unknown): string {
  // Its own message is the HTTP one ("Service Unavailable"); a command run wants the database's reason.
  if (error instanceof DatabaseUnavailableError && error.cause instanceof Error) return `the database is unavailable: ${error.cause.message}`
  return error instanceof Error ? error.message : String(error)
}
