import { PostgresAdapter, SqliteAdapter, type Kysely } from 'kysely'

export type DialectName = 'sqlite' | 'postgres'

/** Which database a kysely instance (or a transaction of one) talks to. */
export function dialectOf(db: Kysely<any>): DialectName {
  const adapter = db.getExecutor().adapter
  if (adapter instanceof PostgresAdapter) return 'postgres'
  if (adapter instanceof SqliteAdapter) return 'sqlite'
  throw new Error(`Fw supports SQLite and PostgreSQL, not ${adapter.constructor.name}`)
}
