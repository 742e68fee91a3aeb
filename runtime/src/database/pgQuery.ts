import { createRequire } from 'node:module'
import type { QueryResult } from 'kysely'
import type { PoolClient, QueryResult as PgResult } from 'pg'

const require = createRequire(import.meta.url)
let Query: typeof import('pg').Query | undefined

/** What pg answers a query with. */
export type PgCallback = (error: Error | undefined, result: PgResult) => void

/** pg's own Query, made from the text so that pg does not copy a config object property by property (`cloneQueryConfig`). */
function pgQuery(text: string, values: unknown[], name: string | undefined, callback: PgCallback) {
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

/**
 * Runs a query on a connection under its name, if it has one. A named statement that went stale there
 * (`isStaleStatement`) is forgotten and the query runs once more, prepared afresh.
 */
export function runNamed(client: PoolClient, text: string, values: unknown[], name: string | undefined, answer: PgCallback): void {
  client.query(
    pgQuery(text, values, name, (error, result) => {
      if (name === undefined || !isStaleStatement(error)) return answer(error, result)
      forget(client, name)
      client.query(pgQuery(text, values, name, answer))
    }),
  )
}

/**
 * Makes the connection forget a statement, in pg's record of it and in PostgreSQL, in the same turn: every query
 * written after this one parses it afresh, and the DEALLOCATE is on the wire before them. Queries pipelined before
 * it that fail the same way come here too, each with a DEALLOCATE of its own, which removes only what was parsed
 * before it on the wire.
 */
function forget(client: PoolClient, name: string): void {
  const { connection } = client as unknown as { connection: { parsedStatements: Record<string, string>; submittedNamedStatements?: Record<string, string> } }
  delete connection.parsedStatements[name]
  if (connection.submittedNamedStatements) delete connection.submittedNamedStatements[name]
  // 26000 when PostgreSQL had already forgotten it: nothing to do either way.
  client.query(`DEALLOCATE ${name}`, ignore)
}

function ignore(): void {}

/** pg's result as kysely's PostgreSQL driver reports it. */
export function toQueryResult<R>(result: PgResult): QueryResult<R> {
  const { command, rowCount, rows } = result
  if (command === 'ROLLBACK' || command === 'COMMIT') return { rows: [{ command } as R] }
  const affects = command === 'INSERT' || command === 'UPDATE' || command === 'DELETE' || command === 'MERGE'
  return { numAffectedRows: affects ? BigInt(rowCount ?? 0) : undefined, rows: (rows as R[] | undefined) ?? [] }
}
