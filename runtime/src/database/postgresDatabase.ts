import { Kysely, type CompiledQuery, type QueryResult } from 'kysely'
import type { Pool, QueryResult as PgResult } from 'pg'
import type { ResolvedDatabaseConfig } from './databaseConfig.js'
import { postgresDialect, translate } from './postgresDialect.js'
import { withPostgresParameters } from './postgresValues.js'

/**
 * A kysely instance on PostgreSQL whose plain queries (`execute()`, `executeTakeFirst()`, no abort signal,
 * outside a transaction) go straight to the pg pool: a pooled connection is taken, the query runs and the
 * connection is given back through pg's callbacks, one promise for the whole round trip. kysely's own path
 * awaits a dozen async layers for the same work (the connection provider, the runtime driver, the pg driver,
 * the connection, the release, the result plugins), which costs a database route about 10% of its CPU time.
 * Everything else (transactions, `connection()`, plugins, abort signals, streams) keeps kysely's path, and so
 * does the first query, through which kysely's driver opens the pool (and `destroy()` later ends it).
 * Failures and values are the same as on kysely's path: DatabaseUnavailableError when the database cannot
 * answer now, parameters and columns converted by the pool's `postgresValues`.
 *
 * @example
 * ```ts
 * const db = postgresDatabase<Tables>('postgres://app@127.0.0.1/app', databaseConfig())
 * ```
 */
export function postgresDatabase<DB>(url: string, config: ResolvedDatabaseConfig): Kysely<DB> {
  const dialect = postgresDialect(url, config)
  const db = new Kysely<DB>({ dialect })
  // This executor serves the instance and every query builder made from it; a transaction, a plugin or
  // `withSchema` makes an executor of its own, which keeps kysely's path.
  const executor = db.getExecutor()
  const throughKysely = executor.executeQuery.bind(executor)
  executor.executeQuery = <R>(query: CompiledQuery, options?: Parameters<typeof throughKysely>[1]): Promise<QueryResult<R>> => {
    const pool = dialect.pool.current
    if (pool === undefined || options?.signal) return throughKysely<R>(query, options)
    return queryPool<R>(pool, withPostgresParameters(query))
  }
  return db
}

/** One query on a connection of the pool, given back when it answers; kysely's result shape. */
function queryPool<R>(pool: Pool, query: CompiledQuery): Promise<QueryResult<R>> {
  return new Promise((resolve, reject) => {
    pool.connect((connectError, client, release) => {
      if (connectError || !client) {
        reject(translate(connectError))
        return
      }
      client.query(query.sql, query.parameters as unknown[], (error: Error | undefined, result: PgResult) => {
        // As kysely's driver does: the connection goes back to the pool, which drops it if it broke.
        release()
        if (error) reject(translate(error))
        else resolve(toQueryResult<R>(result))
      })
    })
  })
}

/** pg's result as kysely's PostgreSQL driver reports it. */
function toQueryResult<R>(result: PgResult): QueryResult<R> {
  const { command, rowCount, rows } = result
  if (command === 'ROLLBACK' || command === 'COMMIT') return { rows: [{ command } as R] }
  const affects = command === 'INSERT' || command === 'UPDATE' || command === 'DELETE' || command === 'MERGE'
  return { numAffectedRows: affects ? BigInt(rowCount ?? 0) : undefined, rows: (rows as R[] | undefined) ?? [] }
}
