import type { Database, Statement } from 'better-sqlite3'
import type { Kysely } from 'kysely'

/** `PRAGMA data_version` prepared on the connection of each SQLite database Fw opened, once it is open. */
const statements = new WeakMap<Kysely<any>, Statement>()

/** Keeps `PRAGMA data_version` prepared on `connection`, the one connection of `database` (see `sqliteDatabase`). */
export function keepDataVersion(database: Kysely<any>, connection: Database): void {
  statements.set(database, connection.prepare('pragma data_version').pluck())
}

/**
 * How many commits other connections (other processes) made to the database file, as this process's connection has
 * seen them: it changes when another one commits, never for this connection's own writes. Read synchronously from
 * the WAL index in shared memory, without a query: a few microseconds, cheap enough to ask many times a second.
 * Undefined when `database` is not an Fw SQLite database or its connection is not open yet.
 *
 * @example
 * ```ts
 * const seen = sqliteDataVersion(db())
 * // … later: has another process committed since?
 * const changed = sqliteDataVersion(db()) !== seen
 * ```
 */
export function sqliteDataVersion(database: Kysely<any>): number | undefined {
  return statements.get(database)?.get() as number | undefined
}
