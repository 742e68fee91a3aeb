import { mkdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Database, Statement } from 'better-sqlite3'
import { CompiledQuery, SelectQueryNode, SqliteDialect, SqliteDriver, type DatabaseConnection, type Driver, type QueryResult } from 'kysely'
import { databaseUnavailable } from './DatabaseUnavailableError.js'
import type { ResolvedDatabaseConfig } from './databaseConfig.js'
import { locateForeignKeyFailure } from './sqliteForeignKeys.js'
import { columnConversions, convertRows, toSqliteParameters, type ColumnConversion } from './sqliteValues.js'

const require = createRequire(import.meta.url)

/** The longest pause between two tries for the write lock: short enough to follow a busy writer closely. */
const MAX_PAUSE_MS = 50

/**
 * kysely's SQLite dialect on better-sqlite3, made for several processes on one file. better-sqlite3 is
 * synchronous: its busy timeout (5 s by default) waits for another process's write lock inside the
 * call, freezing every route of the process. Here SQLite gives up at once (`busy_timeout = 0`) and the
 * statement is tried again after a pause that grows to 50 ms, until `busyTimeoutMs` has passed; then it
 * fails with DatabaseUnavailableError (503). A transaction takes the write lock when it begins
 * (`BEGIN IMMEDIATE`), so it waits before doing anything and never fails halfway for want of the lock.
 * Values are read and written as on PostgreSQL (`sqliteValues.ts`): booleans, JSON, timestamps as Dates.
 * `opened` is told of the connection once it is open.
 */
export function sqliteDialect(file: string, config: ResolvedDatabaseConfig, opened?: (connection: Database) => void): SqliteDialect {
  let connection: Database | undefined
  const dialectConfig = {
    database: async () => {
      const BetterSqlite3 = require('better-sqlite3') as typeof import('better-sqlite3')
      mkdirSync(dirname(file), { recursive: true })
      const database = new BetterSqlite3(file, { timeout: 0 })
      // WAL lets `fw serve` read while `fw migrate` writes; foreign keys are off in SQLite by default.
      // Setting the journal mode needs the lock too: it waits like any statement.
      await untilFree(() => database.pragma('journal_mode = WAL'), config.busyTimeoutMs)
      database.pragma('foreign_keys = ON')
      opened?.(database)
      return (connection = database)
    },
  }
  return new (class extends SqliteDialect {
    override createDriver(): Driver {
      return new PatientSqliteDriver(dialectConfig, () => connection!, config.busyTimeoutMs)
    }
  })(dialectConfig)
}

/** SQLite answered SQLITE_BUSY (or BUSY_RECOVERY, …): another connection holds the lock; trying again is safe. */
function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  // BUSY_SNAPSHOT means this transaction read a version another process has since changed: a retry of the
  // statement cannot succeed, only of the whole transaction. With BEGIN IMMEDIATE it does not happen.
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY') && code !== 'SQLITE_BUSY_SNAPSHOT'
}

/** Runs `work` until SQLite stops answering busy, pausing between tries, or fails with a 503 after `timeoutMs`. */
async function untilFree<T>(work: () => T | Promise<T>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs
  let pause = 1
  for (;;) {
    try {
      return await work()
    } catch (error) {
      if (!isBusy(error)) throw error
      if (Date.now() + pause > deadline) throw databaseUnavailable(error)
    }
    await sleep(pause)
    pause = Math.min(pause * 2, MAX_PAUSE_MS)
  }
}

class PatientSqliteDriver extends SqliteDriver {
  private connection: FwSqliteConnection | undefined

  constructor(
    config: ConstructorParameters<typeof SqliteDriver>[0],
    private readonly database: () => Database,
    private readonly busyTimeoutMs: number,
  ) {
    super(config)
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    return (this.connection ??= new FwSqliteConnection(this.database(), this.busyTimeoutMs))
  }

  // The write lock first: a deferred BEGIN would take it at the first write, where a busy answer could
  // only be cured by running the whole transaction again.
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'))
  }
}

/** Statements kept prepared, by SQL: preparing costs more than running a small query. */
const CACHED_STATEMENTS = 200

interface Prepared {
  statement: Statement
  /** The conversions of its result columns, from their declared types, and the schema they were read in. */
  conversions: ColumnConversion[]
  schema: unknown
}

/**
 * The connection of one better-sqlite3 database: parameters and result columns converted to the values
 * PostgreSQL gives (see `sqliteValues.ts`), statements kept prepared, and each statement tried again while
 * another process holds the lock (see `untilFree`). A statement's conversions are worked out from its
 * columns' declared types at its first run, and again when the schema changed since (a migration, in this
 * process or another: SQLite counts the changes in `PRAGMA schema_version`).
 */
class FwSqliteConnection implements DatabaseConnection {
  private readonly prepared = new Map<string, Prepared>()
  private readonly schemaVersion: Statement

  constructor(
    private readonly database: Database,
    private readonly busyTimeoutMs: number,
  ) {
    this.schemaVersion = database.prepare('pragma schema_version').pluck()
  }

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return untilFree(() => this.run<R>(query), this.busyTimeoutMs)
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(query.query)) throw new Error('Sqlite driver only supports streaming of select queries')
    // A statement of its own: a prepared one stays busy while it is being iterated.
    const statement = this.database.prepare(query.sql)
    const conversions = columnConversions(statement.columns())
    for (const row of statement.iterate(toSqliteParameters(query.parameters) as unknown[])) {
      const rows = [row as R]
      convertRows(rows, conversions)
      yield { rows }
    }
  }

  private run<R>(query: CompiledQuery): QueryResult<R> {
    try {
      return this.runStatement<R>(query)
    } catch (error) {
      // SQLite does not say which foreign key failed: find out now, on this connection, while nothing else ran.
      locateForeignKeyFailure(this.database, query, error)
      throw error
    }
  }

  private runStatement<R>(query: CompiledQuery): QueryResult<R> {
    const parameters = toSqliteParameters(query.parameters) as unknown[]
    const prepared = this.statement(query.sql)
    const { statement } = prepared
    if (!statement.reader) {
      const { changes, lastInsertRowid } = statement.run(parameters)
      return { insertId: BigInt(lastInsertRowid), numAffectedRows: BigInt(changes), rows: [] }
    }
    // Read before the statement runs: were it busy after an INSERT … RETURNING, the retry would insert twice.
    const schema = this.schemaVersion.get()
    const rows = statement.all(parameters) as R[]
    if (prepared.schema !== schema) {
      prepared.conversions = columnConversions(statement.columns())
      prepared.schema = schema
    }
    if (prepared.conversions.length > 0) convertRows(rows, prepared.conversions)
    return { rows }
  }

  /** The statement prepared for this SQL, prepared now if need be. */
  private statement(sql: string): Prepared {
    let prepared = this.prepared.get(sql)
    if (prepared === undefined) {
      prepared = { statement: this.database.prepare(sql), conversions: [], schema: undefined }
      // Past the limit the oldest goes: SQL written with values in it would otherwise fill the memory.
      if (this.prepared.size >= CACHED_STATEMENTS) this.prepared.delete(this.prepared.keys().next().value!)
      this.prepared.set(sql, prepared)
    }
    return prepared
  }
}
