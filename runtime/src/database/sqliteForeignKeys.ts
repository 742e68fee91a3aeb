import type { Database } from 'better-sqlite3'
import type { CompiledQuery } from 'kysely'
import { toSqliteParameters } from './sqliteValues.js'

/** Which foreign key a statement failed on, as SQLite does not say: see `locateForeignKeyFailure`. */
export interface ForeignKeyFailure {
  /** The statement's own columns whose value names no row of the parent table; empty when it is `referenced`. */
  readonly columns: readonly string[]
  /** The statement removed or changed a row that other rows still refer to. */
  readonly referenced: boolean
}

/** The failures explained so far, by the driver's error: `constraintViolation()` reads them. */
export const foreignKeyFailures = new WeakMap<object, ForeignKeyFailure>()

/** `insert into "posts"`, `insert or ignore into "posts"`, `update "posts"`, `delete from "posts"`: the statement's table. */
const TARGET = /^\s*(insert|replace|update|delete)(?:\s+or\s+\w+)?(?:\s+into|\s+from)?\s+"((?:[^"]|"")+)"/i

/**
 * SQLite answers a foreign key's failure with `FOREIGN KEY constraint failed` and nothing more. To name the field, the
 * failed statement runs again in a savepoint with its foreign keys checked at the end (`defer_foreign_keys`), SQLite's
 * `foreign_key_check` lists the rows that now break one, and the savepoint is rolled back: nothing of it remains. A
 * statement that broke none of its own table's keys removed or changed a row that others refer to (`referenced`).
 * Any error on the way leaves the failure unexplained, never worse than it was.
 */
export function locateForeignKeyFailure(database: Database, query: CompiledQuery, error: unknown): void {
  if ((error as { code?: unknown } | null)?.code !== 'SQLITE_CONSTRAINT_FOREIGNKEY') return
  const target = TARGET.exec(query.sql)
  if (!target) return
  const [, verb, quoted] = target
  if (verb!.toLowerCase() === 'delete') return void foreignKeyFailures.set(error as object, { columns: [], referenced: true })
  const table = quoted!.replaceAll('""', '"')
  const inTransaction = database.inTransaction
  try {
    const columns = brokenColumns(database, query, table)
    foreignKeyFailures.set(error as object, { columns, referenced: columns.length === 0 })
  } catch {
    // Unexplained: the answer names no field. Outside a transaction, the savepoint's own must not stay open.
    if (!inTransaction && database.inTransaction) database.exec('rollback')
  }
}

function brokenColumns(database: Database, query: CompiledQuery, table: string): string[] {
  const deferred = database.pragma('defer_foreign_keys', { simple: true })
  database.exec('savepoint fw_foreign_keys')
  try {
    database.pragma('defer_foreign_keys = on')
    const statement = database.prepare(query.sql)
    const parameters = toSqliteParameters(query.parameters) as unknown[]
    if (statement.reader) statement.all(parameters)
    else statement.run(parameters)
    const name = `"${table.replaceAll('"', '""')}"`
    const broken = new Set((database.pragma(`foreign_key_check(${name})`) as { fkid: number }[]).map((row) => row.fkid))
    const keys = database.pragma(`foreign_key_list(${name})`) as { id: number; from: string }[]
    return [...new Set(keys.filter((key) => broken.has(key.id)).map((key) => key.from))]
  } finally {
    database.exec('rollback to fw_foreign_keys; release fw_foreign_keys')
    database.pragma(`defer_foreign_keys = ${deferred ? 'on' : 'off'}`)
  }
}
