import { sql, type CreateTableBuilder, type Kysely, type RawBuilder } from 'kysely'
import { dialectOf, dialectOfBuilder } from './dialectOf.js'

// The two column helpers every create-table migration starts from live together: each is one line
// of meaning, and they are always read side by side.

/** A step for `createTable(...).$call(step)`. */
export type TableStep = <B extends CreateTableBuilder<any, any>>(table: B) => B

/**
 * An `id` primary key that the database numbers itself, on SQLite (`integer primary key`), PostgreSQL (an
 * identity column) and MySQL (`auto_increment`) alike.
 *
 * @example
 * ```ts
 * await db.schema.createTable('posts').$call(id(db)).execute()
 * ```
 */
export function id(db: Kysely<any>, name = 'id'): TableStep {
  const dialect = dialectOf(db)
  return <B extends CreateTableBuilder<any, any>>(table: B): B =>
    table.addColumn(name, 'integer', (column) =>
      dialect === 'postgres' ? column.primaryKey().generatedByDefaultAsIdentity() : dialect === 'mysql' ? column.primaryKey().autoIncrement() : column.primaryKey(),
    ) as B
}

/**
 * `created_at` and `updated_at`, filled with the current time when a row is inserted, to the millisecond
 * and in UTC on SQLite, PostgreSQL and MySQL alike (see `currentTimestamp`).
 *
 * @example
 * ```ts
 * await db.schema.createTable('posts').$call(id(db)).$call(timestamps()).execute()
 * ```
 */
export function timestamps(): TableStep {
  return <B extends CreateTableBuilder<any, any>>(table: B): B => {
    // PostgreSQL keeps microseconds unless told; SQLite's CURRENT_TIMESTAMP has whole seconds, and so have MySQL's
    // columns and CURRENT_TIMESTAMP unless told (a `datetime`: no time zone conversion, no end in 2038).
    const [type, now] = TIMESTAMP_COLUMN[dialectOfBuilder(table)]
    return table
      .addColumn('created_at', type, (column) => column.notNull().defaultTo(now))
      .addColumn('updated_at', type, (column) => column.notNull().defaultTo(now)) as B
  }
}

/** SQLite's current time in the form Fw stores timestamps in: `YYYY-MM-DD HH:MM:SS.SSS`, UTC. */
const SQLITE_NOW = sql`strftime('%Y-%m-%d %H:%M:%f', 'now')`

/** The type and default of `timestamps()` columns on each database. */
const TIMESTAMP_COLUMN = {
  sqlite: ['timestamp', sql`(${SQLITE_NOW})`],
  postgres: ['timestamp(3)', sql`CURRENT_TIMESTAMP`],
  mysql: ['datetime(3)', sql`CURRENT_TIMESTAMP(3)`],
} as const

/**
 * The database's current time, to write to a timestamp column (`updated_at`): to the millisecond on SQLite and MySQL,
 * whose `CURRENT_TIMESTAMP` has whole seconds, as on PostgreSQL. Read back, it is a `Date`.
 *
 * @example
 * ```ts
 * await db.updateTable('posts').set({ title, updated_at: currentTimestamp(db) }).where('id', '=', id).execute()
 * ```
 */
export function currentTimestamp(db: Kysely<any>): RawBuilder<Date> {
  const dialect = dialectOf(db)
  return dialect === 'postgres' ? sql<Date>`CURRENT_TIMESTAMP` : dialect === 'mysql' ? sql<Date>`CURRENT_TIMESTAMP(3)` : sql<Date>`${SQLITE_NOW}`
}
