import { CompiledQuery, type DatabaseConnection, type OperationNode } from 'kysely'

/** The columns of the unique index a duplicate-key error names, by the driver's error: `constraintViolation()` reads them. */
export const duplicateKeyColumns = new WeakMap<object, readonly string[]>()

/** MariaDB names the index (`for key 'users_team_email'`), MySQL 8.0.19+ its table too (`for key 'users.users_team_email'`). */
const DUPLICATE_KEY = /for key '(?:([^'.]+)\.)?([^']+)'$/

/**
 * The columns of the foreign key in MySQL's 1452 message, "… CONSTRAINT `posts_ibfk_1` FOREIGN KEY (`user_id`)
 * REFERENCES `users` (`id`)": in the key's order.
 */
export function foreignKeyColumns(message: string): string[] {
  const list = /FOREIGN KEY \(([^)]+)\) REFERENCES/.exec(message)?.[1]
  if (list === undefined) return []
  return list.split(',').map((column) => column.trim().replace(/^`(.*)`$/, '$1').replaceAll('``', '`'))
}

/**
 * MySQL's duplicate-key error (1062) names the index, not its columns: this looks them up in the catalog, on the
 * connection the statement failed on (which a 1062 leaves open, in its transaction if any), and keeps them for
 * `constraintViolation()`. The table is the statement's own when kysely built it, else the one table with an index
 * of that name. An index looked up once is remembered in `cache` (its columns do not change without a migration,
 * which restarts the app). Any error on the way leaves the error unexplained (no columns), never worse than it was.
 */
export async function explainDuplicateKey(connection: DatabaseConnection, query: CompiledQuery, error: unknown, cache: Map<string, readonly string[]>): Promise<void> {
  if (typeof error !== 'object' || error === null || (error as { errno?: unknown }).errno !== 1062) return
  const named = DUPLICATE_KEY.exec(String((error as { message?: unknown }).message))
  if (!named) return
  const [, tableInMessage, index] = named as unknown as [string, string | undefined, string]
  const table = tableInMessage ?? tableOf(query.query)
  const key = `${table ?? ''}\u0000${index}`
  let columns = cache.get(key)
  if (columns === undefined) {
    try {
      const { rows } = await connection.executeQuery<{ t: string; c: string }>(
        CompiledQuery.raw(
          `select TABLE_NAME as t, COLUMN_NAME as c from information_schema.STATISTICS where TABLE_SCHEMA = database() and INDEX_NAME = ?${table === undefined ? '' : ' and TABLE_NAME = ?'} order by TABLE_NAME, SEQ_IN_INDEX`,
          table === undefined ? [index] : [index, table],
        ),
      )
      const tables = new Set(rows.map((row) => row.t))
      columns = tables.size === 1 ? rows.map((row) => row.c) : []
      cache.set(key, columns)
    } catch {
      return
    }
  }
  duplicateKeyColumns.set(error, columns)
}

/** The table an insert or update that kysely built writes to. */
function tableOf(node: OperationNode | undefined): string | undefined {
  const target = node?.kind === 'InsertQueryNode' ? (node as { into?: OperationNode }).into : node?.kind === 'UpdateQueryNode' ? (node as { table?: OperationNode }).table : undefined
  if (target?.kind !== 'TableNode') return undefined
  return (target as unknown as { table: { identifier: { name: string } } }).table.identifier.name
}
