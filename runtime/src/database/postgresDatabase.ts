import { createRequire } from 'node:module'
import { Kysely, type CompiledQuery, type QueryResult } from 'kysely'
import type { Pool, PoolClient, QueryResult as PgResult } from 'pg'
import type { ResolvedDatabaseConfig } from './databaseConfig.js'
import { PostgresJsQueries } from './PostgresJsQueries.js'
import { StatementNames } from './StatementNames.js'
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
  executor.executeQuery = <R>(query: CompiledQuery, options?: Parameters<typeof throughKysely>[1]): Promise<QueryResult<R>> => {
    if (options?.signal) return throughKysely<R>(query, options)
    if (plain) return plain.run<R>(query)
    const pool = dialect.pool.current
    if (pool === undefined) return throughKysely<R>(query, options)
    return queryPool<R>(pool, withPostgresParameters(query), names?.of(query.sql))
  }
  if (plain) {
    // kysely ends its driver only once the driver opened (a transaction, `connection()`): postgres.js's pool may
    // be the only one open.
    const destroy = db.destroy.bind(db)
    db.destroy = () => Promise.all([destroy(), plain.end()]).then(() => undefined)
  }
  return db
}

const require = createRequire(import.meta.url)
let Query: typeof import('pg').Query | undefined

/** pg's own Query, made from the text so that pg does not copy a config object property by property (`cloneQueryConfig`). */
function pgQuery(text: string, values: unknown[], name: string | undefined, callback: (error: Error | undefined, result: PgResult) => void) {
  Query ??= (require('pg') as typeof import('pg')).Query
  const query = new Query(text, values, callback as never)
  // pg's types leave out the name a Query is prepared under; its code reads it from the object.
  if (name !== undefined) (query as { name?: string }).name = name
  return query
}

/**
 * A named statement that the connection cannot run as it prepared it: 0A000 "cached plan must not change result
 * type" (a migration changed the columns a `select *` returns), 26000 "prepared statement does not exist" (something
 * ran `DEALLOCATE ALL` or `DISCARD ALL` on the connection).
 */
function isStaleStatement(error: Error | undefined): boolean {
  const code = (error as { code?: string } | undefined)?.code
  return code === '26000' || (code === '0A000' && /cached plan must not change result type/.test(error!.message))
}

/** Makes the connection forget a statement, in PostgreSQL and in pg's record of it, so that the next run parses it afresh. */
function forget(client: PoolClient, name: string, then: () => void): void {
  const parsed = (client as unknown as { connection: { parsedStatements: Record<string, string> } }).connection.parsedStatements
  client.query(`DEALLOCATE ${name}`, () => {
    // 26000: PostgreSQL had already forgotten it, and DEALLOCATE fails the same way; pg's record must go either way.
    delete parsed[name]
    then()
  })
}

/**
 * One query on a connection of the pool, given back when it answers; kysely's result shape. A named statement
 * that went stale on this connection is forgotten and run once more.
 */
function queryPool<R>(pool: Pool, query: CompiledQuery, name: string | undefined): Promise<QueryResult<R>> {
  return new Promise((resolve, reject) => {
    pool.connect((connectError, client, release) => {
      if (connectError || !client) {
        reject(translate(connectError))
        return
      }
      const answer = (error: Error | undefined, result: PgResult) => {
        // As kysely's driver does: the connection goes back to the pool, which drops it if it broke.
        release()
        if (error) reject(translate(error))
        else resolve(toQueryResult<R>(result))
      }
      const parameters = query.parameters as unknown[]
      client.query(
        pgQuery(query.sql, parameters, name, (error, result) => {
          if (name === undefined || !isStaleStatement(error)) return answer(error, result)
          forget(client, name, () => client.query(pgQuery(query.sql, parameters, name, answer)))
        }),
      )
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
