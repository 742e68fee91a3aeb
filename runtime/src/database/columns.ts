import { sql, type CreateTableBuilder, type Kysely } from 'kysely'
import { dialectOf } from './dialectOf.js'

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
 * `created_at` and `updated_at`, filled with the current time when a row is inserted.
 *
 * @example
 * ```ts
 * await db.schema.createTable('posts').$call(id(db)).$call(timestamps()).execute()
 * ```
 */
export function timestamps(): TableStep {
  return <B extends CreateTableBuilder<any, any>>(table: B): B =>
    table
      .addColumn('created_at', 'timestamp', (column) => column.notNull().defaultTo(sql`CURRENT_TIMESTAMP`))
      .addColumn('updated_at', 'timestamp', (column) => column.notNull().defaultTo(sql`CURRENT_TIMESTAMP`)) as B
}
