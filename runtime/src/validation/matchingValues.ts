import { sql, type Kysely } from 'kysely'
import { db } from '../database/db.js'
import { dialectOf } from '../database/dialectOf.js'

/** What narrows the rows a rule looks at: column → value (`null` for `is null`). */
export type RuleWhere = Readonly<Record<string, unknown>>

/** The rows a rule may match: those `where` names, but the one `ignore` names (by `idColumn`). */
export interface RuleScope {
  where?: RuleWhere
  ignore?: unknown
  idColumn?: string
}

/**
 * Which of `values` are found in `table.column` among the rows of the scope, as strings (`5` and `'5'` are the same
 * key). A value that cannot be the column's type (`'abc'` for an integer on PostgreSQL) is in no row: PostgreSQL's
 * data exception (SQLSTATE class 22) is that answer, not an error.
 */
export async function matchingValues(table: string, column: string, values: readonly unknown[], scope: RuleScope = {}): Promise<Set<string>> {
  if (values.length === 0) return new Set()
  const database = db() as Kysely<any>
  let query = database.selectFrom(table).select(sql.ref(column).as('value')).distinct().where(sql.ref(column), 'in', values)
  for (const [name, value] of Object.entries(scope.where ?? {})) {
    query = value === null ? query.where(sql.ref(name), 'is', null) : query.where(sql.ref(name), '=', value)
  }
  if (scope.ignore !== undefined && scope.ignore !== null) query = query.where(sql.ref(scope.idColumn ?? 'id'), '<>', scope.ignore)
  // In a PostgreSQL transaction a failed query fails every later one: a savepoint keeps the data exception to itself.
  const guarded = database.isTransaction && dialectOf(database) === 'postgres'
  try {
    if (guarded) await sql`savepoint fw_rule`.execute(database)
    const rows = await query.limit(values.length).execute()
    if (guarded) await sql`release savepoint fw_rule`.execute(database)
    return new Set(rows.map((row) => String(row.value)))
  } catch (error) {
    if (!isDataException(error)) throw error
    if (guarded) await sql`rollback to savepoint fw_rule`.execute(database)
    return new Set()
  }
}

/** Whether a value can be looked up in a column at all: a string, a number, a bigint, a boolean or a date. */
export function isLookupValue(value: unknown): value is string | number | bigint | boolean | Date {
  return ['string', 'number', 'bigint', 'boolean'].includes(typeof value) || value instanceof Date
}

function isDataException(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code)
}
