import { Kysely } from 'kysely'
import type { ResolvedDatabaseConfig } from './databaseConfig.js'
import { mysqlDialect } from './mysqlDialect.js'

/**
 * A kysely instance on MySQL 8 or MariaDB 10.6+, through mysql2 (see `mysqlDialect`): the pool opens on the first
 * query, failures from an unavailable server are DatabaseUnavailableError (503), and values read and written are
 * those of SQLite and PostgreSQL (booleans, parsed json, UTC Dates, `YYYY-MM-DD` dates, exact bigints and decimals).
 * `DB_PREPARE`, `DB_PIPELINE` and `DB_DRIVER` are PostgreSQL's and mean nothing here: mysql2 sends each query as
 * text, its values escaped into it.
 *
 * @example
 * ```ts
 * const db = mysqlDatabase<Tables>('mysql://app:secret@127.0.0.1:3306/app', databaseConfig())
 * ```
 */
export function mysqlDatabase<DB>(url: string, config: ResolvedDatabaseConfig): Kysely<DB> {
  return new Kysely<DB>({ dialect: mysqlDialect(url, config) })
}
