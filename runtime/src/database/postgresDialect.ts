import { createRequire } from 'node:module'
import { PostgresDialect, PostgresDriver, type DatabaseConnection, type Driver, type QueryResult } from 'kysely'
import type { CompiledQuery } from 'kysely'
import type { Pool } from 'pg'
import { databaseUnavailable } from './DatabaseUnavailableError.js'
import type { ResolvedDatabaseConfig } from './databaseConfig.js'
import { postgresTypes, withPostgresParameters } from './postgresValues.js'

const require = createRequire(import.meta.url)

/** Socket errors that mean the server is unreachable or went away, and postgres.js's own for the same. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'CONNECTION_CLOSED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
])
/**
 * SQLSTATEs that say "not now" rather than "wrong query": class 08 (connection exception) and these:
 * 57P01-57P03 the server is shutting down, crashed or starting; 53300 too many connections;
 * 57014 the statement ran past `statement_timeout`.
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300', '57014'])
/** pg reports a lost connection or a pool that had no slot in time by message only. */
const UNAVAILABLE_MESSAGE = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/

/** Whether a pg or postgres.js error means that the database is unavailable, not that the query is wrong. */
export function isPostgresUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  const code = (error as { code?: unknown }).code
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_STATES.has(code) || code.startsWith('08'))) return true
  return UNAVAILABLE_MESSAGE.test(error.message)
}

/** The error to throw for a pg error: DatabaseUnavailableError when the database is unavailable, else the error itself. */
export function translate(error: unknown): unknown {
  return isPostgresUnavailable(error) ? databaseUnavailable(error) : error
}

/** kysely's PostgreSQL dialect, and the pool it opens, for `postgresDatabase` to query directly. */
export interface FwPostgresDialect extends PostgresDialect {
  /** The pool while kysely's driver holds it: once the driver opened it (first query), until `destroy()`. */
  readonly pool: { readonly current: Pool | undefined }
}

/**
 * kysely's PostgreSQL dialect over a pg pool sized and timed by the config, that survives the faults of a
 * real deployment: a connection the server drops is logged and left out of the pool (pg would otherwise
 * emit an unhandled 'error' and end the process), and a query that cannot reach the server fails with
 * DatabaseUnavailableError (503). The pool opens new connections as they are needed, so the application
 * recovers by itself when PostgreSQL is back. Its sessions run in UTC, and values are read and written as
 * on SQLite (`postgresValues.ts`): timestamps as Dates in UTC whatever the process's zone, arrays as JSON.
 * `onDestroy` runs as kysely's `destroy()` ends the pool: another pool of the same database ends with it.
 */
export function postgresDialect(url: string, config: ResolvedDatabaseConfig, onDestroy: () => Promise<void> | void = () => {}): FwPostgresDialect {
  const pool: { current: Pool | undefined } = { current: undefined }
  const dialectConfig = {
    pool: async () => (pool.current = openPool(url, config)),
  }
  return new (class extends PostgresDialect {
    readonly pool = pool
    override createDriver(): Driver {
      return new ResilientPostgresDriver(dialectConfig, () => {
        pool.current = undefined
        return onDestroy()
      })
    }
  })(dialectConfig)
}

/** Sessions in UTC, whatever the server's zone: `CURRENT_TIMESTAMP` stored in a `timestamp` column is UTC, as on SQLite. */
const IN_UTC = '-c TimeZone=UTC'

function openPool(url: string, config: ResolvedDatabaseConfig): Pool {
  const pg = require('pg') as typeof import('pg')
  const pool = new pg.Pool({
    connectionString: inUtc(url),
    options: IN_UTC,
    max: config.poolMax,
    idleTimeoutMillis: config.idleTimeoutMs,
    connectionTimeoutMillis: config.connectionTimeoutMs,
    ...(config.statementTimeoutMs > 0 ? { statement_timeout: config.statementTimeoutMs } : {}),
    types: postgresTypes(pg),
  })
  // An idle connection that breaks (pg_terminate_backend, a server restart): pg-pool removes it and emits this.
  pool.on('error', (error) => {
    console.error(`[fw] PostgreSQL closed an idle connection; the pool drops it and opens another when needed: ${error.message}`)
  })
  // A connection in use that breaks also emits 'error' on its client, where pg-pool listens only while it is
  // idle. The query using it fails (and is answered 503); the pool discards the client when it comes back.
  pool.on('connect', (client) => client.on('error', ignore))
  return pool
}

function ignore(): void {}

/** The URL with `-c TimeZone=UTC` added to its own `options=…`, which pg would use instead of the pool's. */
function inUtc(url: string): string {
  return url.replace(/([?&]options=)([^&#]*)/, (_, name: string, value: string) => `${name}${value}${encodeURIComponent(` ${IN_UTC}`)}`)
}

/** Hands kysely connections whose failures from an unavailable server become DatabaseUnavailableError. */
class ResilientPostgresDriver extends PostgresDriver {
  private readonly wrapped = new WeakMap<DatabaseConnection, ResilientConnection>()

  constructor(
    config: ConstructorParameters<typeof PostgresDriver>[0],
    private readonly onDestroy: () => Promise<void> | void,
  ) {
    super(config)
  }

  override async destroy(): Promise<void> {
    await Promise.all([this.onDestroy(), super.destroy()])
  }

  override async acquireConnection(options?: Parameters<PostgresDriver['acquireConnection']>[0]): Promise<DatabaseConnection> {
    let connection: DatabaseConnection
    try {
      connection = await super.acquireConnection(options)
    } catch (error) {
      throw translate(error)
    }
    let resilient = this.wrapped.get(connection)
    if (!resilient) this.wrapped.set(connection, (resilient = new ResilientConnection(connection)))
    return resilient
  }

  // kysely's driver marks its own connection object for discard and releases it: give it that one.
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await super.rollbackTransaction((connection as ResilientConnection).inner as Parameters<PostgresDriver['rollbackTransaction']>[0])
    } catch (error) {
      throw translate(error)
    }
  }

  override async releaseConnection(connection: DatabaseConnection): Promise<void> {
    await super.releaseConnection((connection as ResilientConnection).inner as Parameters<PostgresDriver['releaseConnection']>[0])
  }
}

class ResilientConnection implements DatabaseConnection {
  readonly cancelQuery: DatabaseConnection['cancelQuery']
  readonly killSession: DatabaseConnection['killSession']
  readonly collectSessionInfo: DatabaseConnection['collectSessionInfo']

  constructor(readonly inner: DatabaseConnection) {
    this.cancelQuery = inner.cancelQuery?.bind(inner)
    this.killSession = inner.killSession?.bind(inner)
    this.collectSessionInfo = inner.collectSessionInfo?.bind(inner)
  }

  async executeQuery<R>(query: CompiledQuery, options?: Parameters<DatabaseConnection['executeQuery']>[1]): Promise<QueryResult<R>> {
    try {
      return await this.inner.executeQuery<R>(withPostgresParameters(query), options)
    } catch (error) {
      throw translate(error)
    }
  }

  streamQuery<R>(query: CompiledQuery, chunkSize: number, options?: Parameters<DatabaseConnection['streamQuery']>[2]): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(withPostgresParameters(query), chunkSize, options)
  }
}
