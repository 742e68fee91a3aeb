import { MysqlAdapter, PostgresAdapter, SqliteAdapter, sql, type CreateTableBuilder, type Kysely } from 'kysely'

export type DialectName = 'sqlite' | 'postgres' | 'mysql'

/** Which database a kysely instance (or a transaction of one) talks to. */
export function dialectOf(db: Kysely<any>): DialectName {
  const adapter = db.getExecutor().adapter
  if (adapter instanceof PostgresAdapter) return 'postgres'
  if (adapter instanceof SqliteAdapter) return 'sqlite'
  if (adapter instanceof MysqlAdapter) return 'mysql'
  throw new Error(`Fw supports SQLite, PostgreSQL and MySQL, not ${adapter.constructor.name}`)
}

/**
 * Which database a create-table statement is built for. kysely does not expose a builder's executor, but
 * its compiler shows through: PostgreSQL's numbers parameters (`$1`), SQLite's does not (`?`), and MySQL's quotes
 * names with backticks.
 */
export function dialectOfBuilder(table: CreateTableBuilder<any, any>): DialectName {
  const probe = table.addColumn('probe', 'integer', (column) => column.defaultTo(sql`${0}`)).compile().sql
  if (probe.includes('$1')) return 'postgres'
  return probe.includes('`probe`') ? 'mysql' : 'sqlite'
}
