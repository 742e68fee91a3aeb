import { sql, type CreateTableBuilder, type Kysely, type RawBuilder } from 'kysely'
import { dialectOf, dialectOfBuilder } from './dialectOf.js'

// The two column helpers every create-table migration starts from live together: each is one line
// of meaning, and they are always read side by side.

/** A step for `createTable(...).$call(step)`. */
export type TableStep = <B extends CreateTableBuilder<any, any>>(table: B) => B

/**
 * An `id` primary key that the database numbers itself, on SQLite (`integer primary key`) and on
 * PostgreSQL (an identity column) alike.
 *
 * @example
 * ```ts
 * await db.schema.createTable('posts').$call(id(db)).execute()
 * ```
 */
export function id(db: Kysely<any>, name = 'id'): TableStep {
  const postgres = dialectOf(db) === 'postgres'
  return <B extends CreateTableBuilder<any, any>>(table: B): B =>
    table.addColumn(name, 'integer', (column) =>
      postgres ? column.primaryKey().generatedByDefaultAsIdentity() : column.primaryKey(),
    ) as B
}

/**
 * `created_at` and `updated_at`, filled with the current time when a row is inserted, to the millisecond
 * and in UTC on SQLite and PostgreSQL alike (see `currentTimestamp`).
 *
 * @example
 * ```ts
 * await db.schema.createTable('posts').$call(id(db)).$call(timestamps()).execute()
 * ```
 */
export function timestamps(): TableStep {
  return <B extends CreateTableBuilder<any, any>>(table: B): B => {
    // PostgreSQL keeps microseconds unless told; SQLite's CURRENT_TIMESTAMP has whole seconds.
    const [type, now] = dialectOfBuilder(table) === 'postgres' ? (['timestamp(3)', sql`CURRENT_TIMESTAMP`] as const) : (['timestamp', sql`(${SQLITE_NOW})`] as const)
    return table
      .addColumn('created_at', type, (column) => column.notNull().defaultTo(now))
      .addColumn('updated_at', type, (column) => column.notNull().defaultTo(now)) as B
  }
}

/** SQLite's current time in the form Fw stores timestamps in: `YYYY-MM-DD HH:MM:SS.SSS`, UTC. */
const SQLITE_NOW = sql`strftime('%Y-%m-%d %H:%M:%f', 'now')`

/**
 * The database's current time, to write to a timestamp column (`updated_at`): to the millisecond on SQLite,
 * whose `CURRENT_TIMESTAMP` has whole seconds, as on PostgreSQL. Read back, it is a `Date`.
 *
 * @example
 * ```ts
 * await db.updateTable('posts').set({ title, updated_at: currentTimestamp(db) }).where('id', '=', id).execute()
 * ```
 */
export function currentTimestamp(db: Kysely<any>): RawBuilder<Date> {
  return dialectOf(db) === 'postgres' ? sql<Date>`CURRENT_TIMESTAMP` : sql<Date>`${SQLITE_NOW}`
}
