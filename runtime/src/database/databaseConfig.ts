import { appRoot } from '../config/appRoot.js'
/**
 * How Fw opens the database, beyond its URL. Every field has an environment variable; a value given
 * to `createDatabase` wins over the environment.
 */
export interface DatabaseConfig {
  /** The application's root folder, where a relative SQLite path starts (default: the app's root, see `appRoot`). */
  root?: string
  /** PostgreSQL and MySQL: most connections this process opens (`DB_POOL_MAX`, default 10). */
  poolMax?: number
  /** PostgreSQL and MySQL: milliseconds an unused connection stays open (`DB_POOL_IDLE_TIMEOUT_MS`, default 10 000; 0 = no limit). */
  idleTimeoutMs?: number
  /**
   * PostgreSQL and MySQL: milliseconds a query waits for a pool slot and a new connection before it fails with a
   * 503 (`DB_CONNECTION_TIMEOUT_MS`, default 5 000).
   */
  connectionTimeoutMs?: number
  /**
   * PostgreSQL and MySQL: milliseconds a statement may run before the server cancels it (`DB_STATEMENT_TIMEOUT_MS`,
   * default 0 = no limit). On MariaDB it bounds every statement (`max_statement_time`), on MySQL 8 only SELECTs
   * (`max_execution_time`); on both it also bounds a row lock wait (`innodb_lock_wait_timeout`, whole seconds), and a
   * query that gets no answer by this time plus `connectionTimeoutMs` (a server that stopped answering) fails with a 503.
   */
  statementTimeoutMs?: number
  /**
   * SQLite: milliseconds a write waits for another process's write lock, without blocking the event loop,
   * before it fails with a 503 (`DB_BUSY_TIMEOUT_MS`, default 5 000).
   */
  busyTimeoutMs?: number
  /**
   * PostgreSQL: the queries the application repeats run as prepared statements that each connection keeps
   * (`DB_PREPARE`, default true), parsed and planned once instead of on every run. `false` for a pooler that
   * cannot keep them, such as PgBouncer in transaction mode before 1.21.
   */
  prepare?: boolean
  /**
   * PostgreSQL: plain queries (outside a transaction) share the pool's connections, and when every connection is
   * busy they are pipelined on the least busy one, written without waiting for the answers before them
   * (`DB_PIPELINE`, default true). `false` gives each query a connection of its own, so that a slow statement never
   * holds back another request's query.
   */
  pipeline?: boolean
  /**
   * PostgreSQL: the client library (`DB_DRIVER`): `pg` (node-postgres, the default, which pipelines the quick
   * statements with `pipeline`) or `postgres` (postgres.js, which pipelines on its own; see the README's "Database").
   */
  driver?: PostgresDriverName
}

/** The PostgreSQL client libraries Fw runs on, by their npm names. */
export type PostgresDriverName = 'postgres' | 'pg'
const DRIVERS: readonly PostgresDriverName[] = ['pg', 'postgres']

const VARIABLES = {
  poolMax: 'DB_POOL_MAX',
  idleTimeoutMs: 'DB_POOL_IDLE_TIMEOUT_MS',
  connectionTimeoutMs: 'DB_CONNECTION_TIMEOUT_MS',
  statementTimeoutMs: 'DB_STATEMENT_TIMEOUT_MS',
  busyTimeoutMs: 'DB_BUSY_TIMEOUT_MS',
} as const

const DEFAULTS = {
  poolMax: 10,
  idleTimeoutMs: 10_000,
  connectionTimeoutMs: 5_000,
  statementTimeoutMs: 0,
  busyTimeoutMs: 5_000,
} as const

export type ResolvedDatabaseConfig = { root: string; prepare: boolean; pipeline: boolean; driver: PostgresDriverName } & { -readonly [K in keyof typeof DEFAULTS]: number }

const SWITCH: Record<string, boolean> = { true: true, '1': true, yes: true, on: true, false: false, '0': false, no: false, off: false }

/**
 * The settings in force: `given` first, then the environment, then the defaults. A variable that is not
 * a whole number (or a pool of 0) is an error that names it, when the database is opened rather than in a query.
 *
 * @example
 * ```ts
 * databaseConfig({}, { DB_POOL_MAX: '4' }).poolMax // 4
 * ```
 */
export function databaseConfig(given: DatabaseConfig = {}, env: NodeJS.ProcessEnv = process.env): ResolvedDatabaseConfig {
  const resolved = { root: given.root ?? appRoot() } as ResolvedDatabaseConfig
  for (const key of Object.keys(DEFAULTS) as (keyof typeof DEFAULTS)[]) {
    const fromEnv = env[VARIABLES[key]]
    const value = given[key] ?? (fromEnv === undefined || fromEnv === '' ? DEFAULTS[key] : Number(fromEnv))
    const least = key === 'poolMax' ? 1 : 0
    if (!Number.isSafeInteger(value) || value < least) {
      const source = given[key] === undefined ? `${VARIABLES[key]}="${fromEnv}"` : `${key}: ${value}`
      throw new Error(`Invalid database setting ${source}: use a whole number${least ? ', 1 or more' : ' of milliseconds, 0 or more'}`)
    }
    resolved[key] = value
  }
  resolved.prepare = given.prepare ?? onOff('DB_PREPARE', env)
  resolved.pipeline = given.pipeline ?? onOff('DB_PIPELINE', env)
  const driver = given.driver ?? (env.DB_DRIVER || 'pg')
  if (!DRIVERS.includes(driver as PostgresDriverName)) {
    throw new Error(`Invalid database setting ${given.driver ? `driver: "${driver}"` : `DB_DRIVER="${driver}"`}: use ${DRIVERS.join(' or ')}`)
  }
  resolved.driver = driver as PostgresDriverName
  return resolved
}

/** A switch that is on unless the environment turns it off (`false`, `0`, `no`, `off`). */
function onOff(variable: string, env: NodeJS.ProcessEnv): boolean {
  const value = env[variable]
  if (value === undefined || value === '') return true
  const on = SWITCH[value.toLowerCase()]
  if (on === undefined) throw new Error(`Invalid database setting ${variable}="${value}": use true or false`)
  return on
}
