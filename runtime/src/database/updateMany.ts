import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely'
import { dialectOf } from './dialectOf.js'

/** How `updateMany` finds the row each object changes. */
export interface UpdateManyOptions<Key extends string = string> {
  /** The column that names the row to change (default `id`); every object carries it. */
  key?: Key
  /**
   * Changes only rows that also match this condition, its columns named with the table's name (the rows given
   * have the same names): `` sql`posts.deleted_at is null` ``.
   */
  where?: RawBuilder<unknown>
}

/** SQLite takes at most 32,766 parameters a statement: rows beyond what fits go in the next statement. */
const SQLITE_PARAMETERS = 32_766
/** The name the rows go by in the statement. */
const ROWS = sql.id('fw_rows')

/**
 * Changes many rows, each to its own values, in one statement (`update … from` the rows given), where a loop
 * of `updateTable` would make one round trip and one statement per row. Each object carries the key of its
 * row and the values to write; every object must carry the same columns. Resolves to the number of rows changed.
 * A key given twice is written once, with one of its objects. On PostgreSQL the rows are locked in key order, so
 * that two calls over the same rows wait for each other rather than deadlock.
 *
 * On PostgreSQL the rows travel as one JSON parameter, read with the table's own column types
 * (`json_populate_recordset`), so the statement's text is the same for any number of rows and is prepared once
 * per connection. On SQLite they are a `values` list (SQLite 3.33 or later).
 *
 * @example
 * ```ts
 * for (const world of worlds) world.randomNumber = randomId()
 * await updateMany(db(), 'world', worlds)                        // by `id`
 * await updateMany(db(), 'users', [{ email, name }], { key: 'email' })
 * ```
 */
export async function updateMany<DB, T extends keyof DB & string>(
  database: Kysely<DB> | Transaction<DB>,
  table: T,
  rows: readonly NoInfer<Partial<Record<keyof DB[T] & string, unknown>>>[],
  options: UpdateManyOptions<NoInfer<keyof DB[T] & string>> = {},
): Promise<number> {
  const key = options.key ?? 'id'
  if (rows.length === 0) return 0
  const columns = Object.keys(rows[0]!)
  const changed = columns.filter((column) => column !== key)
  for (const row of rows) {
    if (!(key in row)) throw new TypeError(`updateMany(${table}): a row has no "${key}", the key that names the row to change`)
    if (Object.keys(row).length !== columns.length || columns.some((column) => !(column in row))) {
      throw new TypeError(`updateMany(${table}): every row must carry the same columns (${columns.join(', ')})`)
    }
  }
  if (changed.length === 0) return 0
  const target = sql.table(table)
  const set = sql.join(changed.map((column) => sql`${sql.id(column)} = ${ROWS}.${sql.id(column)}`))
  const where = sql`${target}.${sql.id(key)} = ${ROWS}.${sql.id(key)}${options.where ? sql` and (${options.where})` : sql``}`
  if (dialectOf(database as Kysely<any>) === 'postgres') {
    // In key order, so that two calls changing the same rows lock them in the same order and cannot deadlock.
    const sorted = [...rows].sort((a, b) => compare(a[key as keyof typeof a], b[key as keyof typeof b]))
    // PostgreSQL takes a function's rows to be 100, and for that many it reads the whole table (a hash join) where
    // the index finds each row: the `limit`, a parameter, makes it plan for few (10) and look each row up.
    const from = sql`(select * from json_populate_recordset(null::${target}, ${JSON.stringify(sorted, asJson)}) limit ${rows.length})`
    return changes(await sql`update ${target} set ${set} from ${from} as ${ROWS} where ${where}`.execute(database))
  }
  const perStatement = Math.max(1, Math.floor(SQLITE_PARAMETERS / columns.length))
  const names = sql.join(columns.map((column, i) => sql`${sql.id(`column${i + 1}`)} as ${sql.id(column)}`))
  let count = 0
  for (let start = 0; start < rows.length; start += perStatement) {
    const values = sql.join(rows.slice(start, start + perStatement).map((row) => sql`(${sql.join(columns.map((column) => (row as Record<string, unknown>)[column]))})`))
    const from = sql`(select ${names} from (values ${values}))`
    count += changes(await sql`update ${target} set ${set} from ${from} as ${ROWS} where ${where}`.execute(database))
  }
  return count
}

/**
 * A value as PostgreSQL reads it from JSON into its column, as Fw writes parameters (`toPostgresParameter`): a Date
 * as its ISO time in UTC (JSON's own), a bigint as its digits, bytes as `\x…` hex.
 */
function asJson(this: unknown, name: string, value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString()
  // A Buffer's toJSON has already run: read the bytes from the holder.
  const original = (this as Record<string, unknown>)[name]
  if (original instanceof Uint8Array) return `\\x${Buffer.from(original).toString('hex')}`
  return value
}

function compare(a: unknown, b: unknown): number {
  return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0
}

function changes(result: { numAffectedRows?: bigint }): number {
  return Number(result.numAffectedRows ?? 0n)
}
