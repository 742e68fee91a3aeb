import { Kysely, type CompiledQuery, type QueryResult } from 'kysely'
import type { ResolvedDatabaseConfig } from './databaseConfig.js'
import { PipelinedQueries } from './PipelinedQueries.js'
import { PostgresJsQueries } from './PostgresJsQueries.js'
import { StatementNames } from './StatementNames.js'
import { postgresDialect } from './postgresDialect.js'
import { withPostgresParameters } from './postgresValues.js'

/**
 * A kysely instance on PostgreSQL whose plain queries (`execute()`, `executeTakeFirst()`, no abort signal,
 * outside a transaction) go straight to the pg pool's connections through pg's callbacks, one promise for the whole
 * round trip (`PipelinedQueries`): shared and pipelined when the pool is busy (`DB_PIPELINE`, the default), else a
 * connection taken for the query and given back when it answers. kysely's own path
 * awaits a dozen async layers for the same work (the connection provider, the runtime driver, the pg driver,
 * the connection, the release, the result plugins), which costs a database route about 10% of its CPU time.
 * Everything else (transactions, `connection()`, plugins, abort signals, streams) keeps kysely's path, and so
 * does the first query, through which kysely's driver opens the pool (and `destroy()` later ends it).
 * Failures and values are the same as on kysely's path: DatabaseUnavailableError when the database cannot
 * answer now, parameters and columns converted by the pool's `postgresValues`.
 *
 * With `prepare` (the default, `DB_PREPARE`), a plain query whose text the application has run before runs as
 * a named statement, which each connection parses and plans once and keeps (`StatementNames`): on a route that
 * makes many small queries, PostgreSQL's parse and plan work is most of its CPU time per query.
 *
 * With `driver: 'postgres'` (`DB_DRIVER=postgres`), plain queries run on postgres.js instead (`PostgresJsQueries`),
 * from the first one, on a pool of its own that `destroy()` ends with pg's.
 *
 * @example
 * ```ts
 * const db = postgresDatabase<Tables>('postgres://app@127.0.0.1/app', databaseConfig())
 * ```
 */
export function postgresDatabase<DB>(url: string, config: ResolvedDatabaseConfig): Kysely<DB> {
  const names = config.prepare ? new StatementNames() : undefined
  const plain = config.driver === 'postgres' ? new PostgresJsQueries(url, config, names) : undefined
  const dialect = postgresDialect(url, config, () => plain?.end())
  const db = new Kysely<DB>({ dialect })
  // This executor serves the instance and every query builder made from it; a transaction, a plugin or
  // `withSchema` makes an executor of its own, which keeps kysely's path.
  const executor = db.getExecutor()
  const throughKysely = executor.executeQuery.bind(executor)
  let pooled: PipelinedQueries | undefined
  executor.executeQuery = <R>(query: CompiledQuery, options?: Parameters<typeof throughKysely>[1]): Promise<QueryResult<R>> => {
    if (options?.signal) return throughKysely<R>(query, options)
    if (plain) return plain.run<R>(query)
    const pool = dialect.pool.current
    if (pool === undefined) return throughKysely<R>(query, options)
    if (pooled?.pool !== pool) pooled = new PipelinedQueries(pool, config, names)
    return pooled.run<R>(withPostgresParameters(query))
  }
  if (plain) {
    // kysely ends its driver only once the driver opened (a transaction, `connection()`): postgres.js's pool may
    // be the only one open.
    const destroy = db.destroy.bind(db)
    db.destroy = () => Promise.all([destroy(), plain.end()]).then(() => undefined)
  }
  return db
}
