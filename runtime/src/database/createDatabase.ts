import { resolve } from 'node:path'
import type { Kysely } from 'kysely'
import { databaseConfig, type DatabaseConfig } from './databaseConfig.js'
import { mysqlDatabase } from './mysqlDatabase.js'
import { postgresDatabase } from './postgresDatabase.js'
import { sqliteDatabase } from './sqliteDatabase.js'
import type { Tables } from './Tables.js'

/** Where the embedded SQLite database lives when `DATABASE_URL` is not set. */
export const DEFAULT_SQLITE_PATH = 'database/database.sqlite'

/**
 * Opens the database named by a URL: `postgres://…` (or `postgresql://…`) for PostgreSQL, `mysql://…` (or
 * `mariadb://…`) for MySQL or MariaDB, `sqlite:path` or `file:path` for a SQLite file, nothing for
 * `database/database.sqlite`.
 * Drivers load and files are created on the first query, not here. The second argument is the
 * application's root folder, or a DatabaseConfig (pool size and timeouts, else from `DB_*` variables).
 * A query the database cannot answer now (server down, no pool slot in time, SQLite locked by another
 * process past the deadline) fails with DatabaseUnavailableError, which the router answers with 503.
 *
 * @example
 * ```ts
 * const db = createDatabase(process.env.DATABASE_URL, { poolMax: 4, connectionTimeoutMs: 2000 })
 * ```
 */
export function createDatabase<DB = Tables>(url: string | undefined = undefined, options: string | DatabaseConfig = {}): Kysely<DB> {
  const config = databaseConfig(typeof options === 'string' ? { root: options } : options)
  if (url && isPostgresUrl(url)) {
    return postgresDatabase<DB>(url, config)
  }
  if (url && isMysqlUrl(url)) {
    return mysqlDatabase<DB>(url, config)
  }
  return sqliteDatabase<DB>(resolve(config.root, sqlitePath(url)), config)
}

/** The SQLite file a `DATABASE_URL` names (relative to the application's root), `database/database.sqlite` for none. */
export function sqlitePath(url: string | undefined): string {
  if (!url) return DEFAULT_SQLITE_PATH
  const match = /^(?:sqlite|file):(?:\/\/)?(.+)$/.exec(url)
  if (!match?.[1]) {
    throw new Error(`Unsupported DATABASE_URL "${url}": use postgres://user:password@host:port/name, mysql://user:password@host:port/name or sqlite:path/to/file.sqlite`)
  }
  return match[1]
}

/** Whether a `DATABASE_URL` names PostgreSQL (`postgres://` or `postgresql://`). */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url)
}

/** Whether a `DATABASE_URL` names MySQL or MariaDB (`mysql://` or `mariadb://`). */
export function isMysqlUrl(url: string): boolean {
  return /^(mysql|mariadb):\/\//.test(url)
}
