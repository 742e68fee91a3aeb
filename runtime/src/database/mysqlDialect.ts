import { createRequire } from 'node:module'
import { join } from 'node:path'
import { MysqlDialect, MysqlDriver, type CompiledQuery, type QueryCompiler, type DatabaseConnection, type Driver, type MysqlPool, type MysqlPoolConnection, type MysqlQueryResult, type QueryResult } from 'kysely'
import type { Pool, PoolConnection, PoolOptions } from 'mysql2'
import { DatabaseUnavailableError, databaseUnavailable } from './DatabaseUnavailableError.js'
import type { ResolvedDatabaseConfig } from './databaseConfig.js'
import { FwMysqlQueryCompiler } from './FwMysqlQueryCompiler.js'
import { explainDuplicateKey } from './mysqlConstraints.js'
import { MYSQL_VALUE_OPTIONS, withMysqlParameters } from './mysqlValues.js'

/** Socket errors that mean the server is unreachable or went away, and mysql2's own for a closed connection. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'PROTOCOL_CONNECTION_LOST',
])
/**
 * Server errors (by number: MariaDB's and MySQL's numbers part above ~1900, and mysql2 names only MySQL's) that say
 * "not now" rather than "wrong query": 1040 too many connections, 1053 shutting down, 1205 a lock wait past
 * `innodb_lock_wait_timeout`, 1317 the statement was killed, 1969 MariaDB's `max_statement_time`, 3024 MySQL's
 * `max_execution_time`, 1927 MariaDB's and 4031 MySQL's connection killed or timed out, 1290, 1792 and 1836 a
 * read-only server (a failover under way).
 */
const UNAVAILABLE_ERRNOS = new Set([1040, 1053, 1205, 1317, 1969, 3024, 1927, 4031, 1290, 1792, 1836])
/** mysql2's words for a command on a connection that an earlier error closed. */
const CLOSED_CONNECTION = /^Can't add new command when connection is in closed state/

/** Whether a mysql2 error means that the database is unavailable, not that the query is wrong. */
export function isMysqlUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  const { code, errno } = error as { code?: unknown; errno?: unknown }
  if (typeof code === 'string' && NETWORK_CODES.has(code)) return true
  if (typeof errno === 'number' && UNAVAILABLE_ERRNOS.has(errno)) return true
  return CLOSED_CONNECTION.test(error.message)
}

/** The error to throw for a mysql2 error: DatabaseUnavailableError when the database is unavailable, else the error itself. */
export function translateMysql(error: unknown): unknown {
  return isMysqlUnavailable(error) ? databaseUnavailable(error) : error
}

/**
 * kysely's MySQL dialect over a mysql2 pool sized and timed by the config, for MySQL 8 and MariaDB 10.6 and later,
 * that survives the faults of a real deployment as the PostgreSQL one does: a connection the server drops is left
 * out of the pool, a query that cannot reach the server (or waits past `connectionTimeoutMs` for a pool slot, which
 * mysql2 alone would wait for ever) fails with DatabaseUnavailableError (503), and the pool opens new connections
 * as they are needed, so the application recovers by itself when the server is back. Each session runs in UTC,
 * under READ COMMITTED (PostgreSQL's default, not MySQL's REPEATABLE READ) and, with `statementTimeoutMs`, with the
 * server's statement time limit; values are read and written as on SQLite and PostgreSQL (`mysqlValues.ts`), and a
 * migration's column types mean what they mean there (`FwMysqlQueryCompiler`).
 * mysql2 is the application's dependency (an optional peer of fw-runtime), loaded on the first query.
 *
 * @example
 * ```ts
 * const db = new Kysely<Tables>({ dialect: mysqlDialect('mysql://app:secret@127.0.0.1:3306/app', databaseConfig()) })
 * ```
 */
export function mysqlDialect(url: string, config: ResolvedDatabaseConfig): MysqlDialect {
  const dialectConfig = { pool: async () => guardedPool(openPool(url, config), config) }
  return new (class extends MysqlDialect {
    override createDriver(): Driver {
      return new ResilientMysqlDriver(dialectConfig)
    }
    override createQueryCompiler(): QueryCompiler {
      return new FwMysqlQueryCompiler()
    }
  })(dialectConfig)
}

/** mysql2, from the application's own packages first, then from fw-runtime's (its tests and the bench). */
export function loadMysql2(root: string): typeof import('mysql2') {
  for (const from of [join(root, 'package.json'), import.meta.url]) {
    try {
      return createRequire(from)('mysql2') as typeof import('mysql2')
    } catch (error) {
      if ((error as { code?: string }).code !== 'MODULE_NOT_FOUND') throw error
    }
  }
  throw new Error('DATABASE_URL is a MySQL one (mysql://…), which Fw reaches through mysql2, and it is not installed: npm install mysql2@^3.23.0')
}

function openPool(url: string, config: ResolvedDatabaseConfig): Pool {
  const mysql2 = loadMysql2(config.root)
  const pool = mysql2.createPool({
    ...connectionOptions(url),
    connectionLimit: config.poolMax,
    // mysql2 closes idle connections only when maxIdle < connectionLimit, and then also closes every free one past
    // maxIdle each second: it starts with 0 so that its idle sweep runs, and the bound is lifted below.
    maxIdle: config.idleTimeoutMs > 0 ? 0 : config.poolMax,
    idleTimeout: config.idleTimeoutMs,
    ...(config.connectionTimeoutMs > 0 ? { connectTimeout: config.connectionTimeoutMs } : {}),
    ...MYSQL_VALUE_OPTIONS,
  })
  pool.config.maxIdle = config.poolMax
  pool.on('connection', (connection) => {
    // A connection already in error gets more (a write after the server closed it): without a listener of its own,
    // the second would be an unhandled 'error' event, which ends the process.
    connection.on('error', (error: Error) => {
      if ((connection as unknown as { _released?: boolean })._released) {
        console.error(`[fw] MySQL closed an idle connection; the pool drops it and opens another when needed: ${error.message}`)
      }
    })
    startSession(connection, config)
  })
  return pool
}

/** mysql2's connection options from a `mysql://` or `mariadb://` URL, with its query string's options (`?ssl=…`). */
function connectionOptions(url: string): PoolOptions {
  const parsed = new URL(url)
  const options: Record<string, unknown> = {}
  for (const [key, value] of parsed.searchParams) {
    try {
      options[key] = JSON.parse(value)
    } catch {
      options[key] = value
    }
  }
  return {
    ...options,
    host: decodeURIComponent(parsed.hostname.replace(/^\[(.*)\]$/, '$1')) || '127.0.0.1',
    port: parsed.port ? Number(parsed.port) : 3306,
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    database: decodeURIComponent(parsed.pathname.slice(1)) || undefined,
  }
}

/**
 * Sets up a new connection's session before anything else runs on it (a connection runs its commands in order,
 * and mysql2 emits 'connection' before it hands the connection to the first query): UTC, so that `NOW()` and
 * `CURRENT_TIMESTAMP` defaults agree with the Dates mysql2 writes in UTC; strict mode, so that a value too long
 * fails as on PostgreSQL instead of being cut; READ COMMITTED; and the statement time limit, whose variable differs
 * between MariaDB (seconds, any statement) and MySQL (milliseconds, SELECTs only). The two statements cannot be one.
 */
function startSession(connection: PoolConnection, config: ResolvedDatabaseConfig): void {
  const settings = [
    `time_zone = '+00:00'`,
    `SESSION sql_mode = if(find_in_set('STRICT_TRANS_TABLES', @@sql_mode), @@sql_mode, concat_ws(',', nullif(@@sql_mode, ''), 'STRICT_TRANS_TABLES'))`,
  ]
  if (config.statementTimeoutMs > 0) {
    // A lock wait is bounded by the statement timeout on PostgreSQL; InnoDB counts it apart, in whole seconds.
    settings.push(`SESSION innodb_lock_wait_timeout = ${Math.max(1, Math.ceil(config.statementTimeoutMs / 1000))}`)
    settings.push(isMariadb(connection) ? `SESSION max_statement_time = ${config.statementTimeoutMs / 1000}` : `SESSION max_execution_time = ${config.statementTimeoutMs}`)
  }
  const failed = (error: Error | null) => {
    if (error) console.error(`[fw] Could not set up a MySQL session (${error.message}); its queries run with the server's settings`)
  }
  connection.query(`SET ${settings.join(', ')}`, failed)
  connection.query('SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED', failed)
}

/** MariaDB says so in the version of its handshake (`5.5.5-10.11.19-MariaDB-…`). */
function isMariadb(connection: PoolConnection): boolean {
  const handshake = (connection as unknown as { _handshakePacket?: { serverVersion?: string } })._handshakePacket
  return /mariadb/i.test(handshake?.serverVersion ?? '')
}

/**
 * The pool as kysely's driver sees it. A wait for a connection ends at `connectionTimeoutMs` with a 503 (mysql2's
 * pool waits for ever); a connection that comes later goes straight back. With a statement timeout, a query that
 * gets no answer by then and `connectionTimeoutMs` more (a server that stopped answering, which the server's own
 * limit cannot stop) fails with a 503, and its connection is closed: the pool opens another.
 */
function guardedPool(pool: Pool, config: ResolvedDatabaseConfig): MysqlPool {
  const guarded = new WeakMap<PoolConnection, GuardedConnection>()
  // kysely reads a connection only when there is no error.
  const wrap = (connection: PoolConnection): GuardedConnection => {
    if (!connection) return connection
    let wrapper = guarded.get(connection)
    if (!wrapper) guarded.set(connection, (wrapper = new GuardedConnection(connection as unknown as MysqlPoolConnection, config)))
    return wrapper
  }
  const deadline = config.connectionTimeoutMs
  return {
    getConnection(callback) {
      if (deadline <= 0) {
        pool.getConnection((error, connection) => callback(error, wrap(connection)))
        return
      }
      let waiting = true
      const timer = setTimeout(() => {
        waiting = false
        callback(databaseUnavailable(new Error(`No MySQL connection was free within ${deadline} ms (DB_POOL_MAX=${config.poolMax}, DB_CONNECTION_TIMEOUT_MS)`)), undefined as never)
      }, deadline)
      pool.getConnection((error, connection) => {
        if (!waiting) {
          if (!error) connection.release()
          return
        }
        waiting = false
        clearTimeout(timer)
        callback(error, wrap(connection))
      })
    },
    end: (callback) => pool.end(callback),
  }
}

/** A pool connection as kysely's driver uses it, whose queries a stopped server cannot hold for ever. */
class GuardedConnection implements MysqlPoolConnection {
  constructor(
    private readonly connection: MysqlPoolConnection,
    private readonly settings: ResolvedDatabaseConfig,
  ) {}

  get threadId(): number {
    return this.connection.threadId
  }

  /** kysely reads it to open a connection of its own that cancels a query (an abort signal). */
  get config(): object {
    return this.connection.config
  }

  connect(): void {
    throw new Error('A pool connection is connected by its pool')
  }

  query(sql: string, parameters: unknown[], callback?: (error: unknown, result: MysqlQueryResult) => void): ReturnType<MysqlPoolConnection['query']> {
    const { statementTimeoutMs, connectionTimeoutMs } = this.settings
    if (!callback) return this.connection.query(sql, parameters)
    if (statementTimeoutMs <= 0) return this.connection.query(sql, parameters, callback)
    let waiting = true
    const limit = statementTimeoutMs + connectionTimeoutMs
    const timer = setTimeout(() => {
      waiting = false
      // The pool drops it; the server ends the session (and its transaction) when it answers again.
      this.connection.destroy()
      callback(databaseUnavailable(Object.assign(new Error(`MySQL did not answer within ${limit} ms; the connection was closed`), { fatal: true })), undefined as never)
    }, limit)
    return this.connection.query(sql, parameters, (error: unknown, result: MysqlQueryResult) => {
      if (!waiting) return
      waiting = false
      clearTimeout(timer)
      callback(error, result)
    })
  }

  release(): void {
    this.connection.release()
  }

  destroy(): void {
    this.connection.destroy()
  }
}

/** Hands kysely connections whose failures from an unavailable server become DatabaseUnavailableError. */
class ResilientMysqlDriver extends MysqlDriver {
  private readonly wrapped = new WeakMap<DatabaseConnection, ResilientConnection>()
  /** The columns of the unique indexes that duplicate-key errors named, by table and index. */
  private readonly uniqueIndexes = new Map<string, readonly string[]>()

  override async acquireConnection(options?: Parameters<MysqlDriver['acquireConnection']>[0]): Promise<DatabaseConnection> {
    let connection: DatabaseConnection
    try {
      connection = await super.acquireConnection(options)
    } catch (error) {
      throw translateMysql(error)
    }
    let resilient = this.wrapped.get(connection)
    if (!resilient) this.wrapped.set(connection, (resilient = new ResilientConnection(connection, this.uniqueIndexes)))
    return resilient
  }

  // On a connection that died (killed, the server gone) the server has rolled the transaction back already, and a
  // rollback would only fail and replace the error that says why with "connection is in closed state".
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if ((connection as ResilientConnection).dead) return
    try {
      await super.rollbackTransaction(connection)
    } catch (error) {
      throw translateMysql(error)
    }
  }

  override async releaseConnection(connection: DatabaseConnection): Promise<void> {
    await super.releaseConnection((connection as ResilientConnection).inner as Parameters<MysqlDriver['releaseConnection']>[0])
  }
}

class ResilientConnection implements DatabaseConnection {
  readonly cancelQuery: DatabaseConnection['cancelQuery']
  readonly killSession: DatabaseConnection['killSession']
  readonly collectSessionInfo: DatabaseConnection['collectSessionInfo']
  /** Whether a query failed with an error that closed the connection. */
  dead = false

  constructor(
    readonly inner: DatabaseConnection,
    private readonly uniqueIndexes: Map<string, readonly string[]>,
  ) {
    this.cancelQuery = inner.cancelQuery?.bind(inner)
    this.killSession = inner.killSession?.bind(inner)
    this.collectSessionInfo = inner.collectSessionInfo?.bind(inner)
  }

  async executeQuery<R>(query: CompiledQuery, options?: Parameters<DatabaseConnection['executeQuery']>[1]): Promise<QueryResult<R>> {
    try {
      return await this.inner.executeQuery<R>(withMysqlParameters(query), options)
    } catch (error) {
      if (isFatal(error)) this.dead = true
      else await explainDuplicateKey(this.inner, query, error, this.uniqueIndexes)
      throw translateMysql(error)
    }
  }

  streamQuery<R>(query: CompiledQuery, chunkSize: number, options?: Parameters<DatabaseConnection['streamQuery']>[2]): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(withMysqlParameters(query), chunkSize, options)
  }
}

function isFatal(error: unknown): boolean {
  const cause = error instanceof DatabaseUnavailableError ? error.cause : error
  return (cause as { fatal?: unknown } | undefined)?.fatal === true
}
