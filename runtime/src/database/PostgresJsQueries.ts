import { createRequire } from 'node:module'
import { join } from 'node:path'
import type { CompiledQuery, QueryResult } from 'kysely'
import type { Row, Sql } from 'postgres'
import { databaseUnavailable } from './DatabaseUnavailableError.js'
import type { ResolvedDatabaseConfig } from './databaseConfig.js'
import type { StatementNames } from './StatementNames.js'
import { translate } from './postgresDialect.js'
import { postgresJsTypes, toPostgresText } from './postgresValues.js'

/** A query postgres.js was given, which runs once awaited. */
type Pending = ReturnType<Sql['unsafe']>

/** The longest `end()` waits for running queries before it closes their connections. */
const ENDING_SECONDS = 5

/**
 * The plain queries of a PostgreSQL `db` (one statement, outside a transaction) on postgres.js, with
 * `DB_DRIVER=postgres`: the texts the application repeats are prepared once per connection and kept, as on pg
 * (`DB_PREPARE`, `StatementNames`), and when every connection is busy, queries are pipelined on one (sent without
 * waiting for the answers before), so that a route making twenty queries costs few round trips. Transactions and
 * `connection()` stay on pg: postgres.js 3.4 can hand a reserved connection that PostgreSQL ended back to its
 * pool, and the next query on it throws outside any promise, which ends the process.
 *
 * It answers as the pg path does: a query that no connection took within `connectionTimeoutMs`, or that cannot
 * reach the server, fails with DatabaseUnavailableError (503); sessions run in UTC; values are read and written
 * as on SQLite (`postgresValues.ts`). The pool opens on the first query here and ends with `end()`.
 */
export class PostgresJsQueries {
  private sql: Sql | undefined
  private ended = false
  /** The queries sent in this turn of the event loop, looked at once after it (`send`). */
  private readonly sent: Pending[] = []
  /** The queries withdrawn at the deadline, to be answered 503. */
  private readonly late = new WeakSet<Pending>()

  constructor(
    private readonly url: string,
    private readonly config: ResolvedDatabaseConfig,
    /** Which texts to prepare; none without it. */
    private readonly names?: StatementNames,
  ) {}

  /**
   * One query, as kysely's result. A query whose session PostgreSQL ended (57P01, from pg_terminate_backend or
   * a fast shutdown) runs once more: its statement was rolled back with the session, and postgres.js also hands
   * that error, received on a connection that was idle, to the next query of the connection opened in its place.
   */
  run<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    // kysely's words for a query after `destroy()`, as on the pg path.
    if (this.ended) return Promise.reject(new Error('driver has already been destroyed'))
    const parameters = query.parameters.map(toPostgresText) as never[]
    const prepare = this.names?.of(query.sql) !== undefined
    const attempt = (again: boolean): Promise<QueryResult<R>> => {
      const pending = this.send(query.sql, parameters, prepare)
      return pending.then(toQueryResult<R>, (error: unknown) => {
        if (this.late.has(pending)) throw this.noConnection()
        if (again && isTerminatedSession(error)) return attempt(false)
        throw translate(error)
      })
    }
    return attempt(true)
  }

  /** Ends the pool once its running queries answer, at most `ENDING_SECONDS` later. */
  async end(): Promise<void> {
    const sql = this.sql
    this.sql = undefined
    this.ended = true
    await sql?.end({ timeout: ENDING_SECONDS })
  }

  private open(): Sql {
    const postgres = loadPostgresJs(this.config.root)
    const { config } = this
    return postgres(this.url, {
      max: config.poolMax,
      // postgres.js counts these in seconds; 0 would mean "never".
      idle_timeout: config.idleTimeoutMs / 1000 || undefined,
      connect_timeout: Math.max(config.connectionTimeoutMs, 1) / 1000,
      // Off, it overrides each query's own choice (`run`).
      prepare: config.prepare,
      connection: {
        TimeZone: 'UTC',
        ...(config.statementTimeoutMs > 0 ? { statement_timeout: config.statementTimeoutMs } : {}),
      },
      types: postgresJsTypes(),
      // PostgreSQL's notices (`create table if not exists` on a table that exists) are not the application's output.
      onnotice: ignore,
    })
  }

  /**
   * Sends a query. One that no connection took within `connectionTimeoutMs` is withdrawn (`late`): every connection
   * had as many queries in flight as postgres.js sends ahead, so it never reached PostgreSQL. A query that a
   * connection took runs, alone or in turn after those pipelined before it, each bounded by `statement_timeout`.
   * postgres.js hands a query to a connection a microtask after it is awaited, so the queries of this turn are
   * looked at once, after it: only those it queued get a timer.
   */
  private send(text: string, parameters: never[], prepare: boolean): Pending {
    const pending = (this.sql ??= this.open()).unsafe(text, parameters, { prepare })
    if (this.sent.push(pending) === 1) setImmediate(this.timeQueued)
    return pending
  }

  private readonly timeQueued = () => {
    for (const pending of this.sent.splice(0)) {
      if (taken(pending)) continue
      setTimeout(() => {
        if (taken(pending)) return
        this.late.add(pending)
        void pending.cancel()
      }, this.config.connectionTimeoutMs).unref()
    }
  }

  private noConnection(): Error {
    const { connectionTimeoutMs, poolMax } = this.config
    return databaseUnavailable(new Error(`no PostgreSQL connection took the query within ${connectionTimeoutMs} ms (DB_CONNECTION_TIMEOUT_MS; DB_POOL_MAX=${poolMax})`))
  }
}

function ignore(): void {}

/** Whether postgres.js wrote the query to a connection: it sets `state` then. */
function taken(pending: Pending): boolean {
  return Boolean((pending as { state?: unknown }).state)
}

/** postgres.js from the application's dependencies (else from Fw's own), or an error that says how to install it. */
function loadPostgresJs(root: string): typeof import('postgres') {
  for (const from of [join(root, 'package.json'), import.meta.url]) {
    try {
      return createRequire(from)('postgres') as typeof import('postgres')
    } catch (error) {
      if ((error as { code?: string }).code !== 'MODULE_NOT_FOUND') throw error
    }
  }
  throw new Error('DB_DRIVER=postgres runs on postgres.js, which is not installed: npm install postgres@~3.4.9')
}

function isTerminatedSession(error: unknown): boolean {
  return (error as { code?: unknown } | undefined)?.code === '57P01'
}

/** postgres.js's rows as kysely's PostgreSQL driver reports a result. */
function toQueryResult<R>(rows: Row[] & { command?: string; count?: number }): QueryResult<R> {
  const { command, count } = rows
  if (command === 'ROLLBACK' || command === 'COMMIT') return { rows: [{ command } as R] }
  const affects = command === 'INSERT' || command === 'UPDATE' || command === 'DELETE' || command === 'MERGE'
  return { numAffectedRows: affects ? BigInt(count ?? 0) : undefined, rows: rows as unknown as R[] }
}
