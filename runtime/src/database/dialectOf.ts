import { PostgresAdapter, SqliteAdapter, sql, type CreateTableBuilder, type Kysely } from 'kysely'

export type DialectName = 'sqlite' | 'postgres'

/** Which database a kysely instance (or a transaction of one) talks to. */
export function dialectOf(db: Kysely<any>): DialectName {
  const adapter = db.getExecutor().adapter
  if (adapter instanceof PostgresAdapter) return 'postgres'
  if (adapter instanceof SqliteAdapter) return 'sqlite'
  throw new Error(`Fw supports SQLite and PostgreSQL, not ${adapter.constructor.name}`)
}

/**
 * Which database a create-table statement is built for. kysely does not expose a builder's executor, but
 * its compiler shows through: PostgreSQL's numbers parameters (`$1`), SQLite's does not (`?`).
 */
export function dialectOfBuilder(table: CreateTableBuilder<any, any>): DialectName {
  const probe = table.addColumn('probe', 'integer', (column) => column.defaultTo(sql`${0}`)).compile().sql
  return probe.includes('$1') ? 'postgres' : 'sqlite'
}
