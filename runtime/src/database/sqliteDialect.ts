import { mkdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { CompiledQuery, SqliteDialect, SqliteDriver, type DatabaseConnection, type Driver, type QueryResult } from 'kysely'
import { databaseUnavailable } from './DatabaseUnavailableError.js'
import type { ResolvedDatabaseConfig } from './databaseConfig.js'

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
 */
export function sqliteDialect(file: string, config: ResolvedDatabaseConfig): SqliteDialect {
  const dialectConfig = {
    database: async () => {
      const BetterSqlite3 = require('better-sqlite3') as typeof import('better-sqlite3')
      mkdirSync(dirname(file), { recursive: true })
      const database = new BetterSqlite3(file, { timeout: 0 })
      // WAL lets `fw serve` read while `fw migrate` writes; foreign keys are off in SQLite by default.
      // Setting the journal mode needs the lock too: it waits like any statement.
      await untilFree(() => database.pragma('journal_mode = WAL'), config.busyTimeoutMs)
      database.pragma('foreign_keys = ON')
      return database
    },
  }
  return new (class extends SqliteDialect {
    override createDriver(): Driver {
      return new PatientSqliteDriver(dialectConfig, config.busyTimeoutMs)
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
  private connection: PatientConnection | undefined

  constructor(
    config: ConstructorParameters<typeof SqliteDriver>[0],
    private readonly busyTimeoutMs: number,
  ) {
    super(config)
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    return (this.connection ??= new PatientConnection(await super.acquireConnection(), this.busyTimeoutMs))
  }

  // The write lock first: a deferred BEGIN would take it at the first write, where a busy answer could
  // only be cured by running the whole transaction again.
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'))
  }
}

class PatientConnection implements DatabaseConnection {
  constructor(
    private readonly inner: DatabaseConnection,
    private readonly busyTimeoutMs: number,
  ) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return untilFree(() => this.inner.executeQuery<R>(query), this.busyTimeoutMs)
  }

  streamQuery<R>(query: CompiledQuery, chunkSize: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize)
  }
}
