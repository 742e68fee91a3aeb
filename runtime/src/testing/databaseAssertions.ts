import { AssertionError } from 'node:assert'
import { sql, type Kysely } from 'kysely'
import { db } from '../database/db.js'

/** Column → value a row must hold; `null` matches `is null`. */
export type RowMatch = Readonly<Record<string, unknown>>

/** How many of the table's rows a failure lists. */
const SHOWN = 10

/**
 * Passes when a row of `table` in the application's database (`db()`) holds every value of `where`, as Laravel's
 * `assertDatabaseHas`, and returns the first such row. Fails listing the rows the table holds, to see what is there
 * instead.
 *
 * @example
 * ```ts
 * await client.post('/users', { name: 'Ada', email: 'ada@example.com' })
 * const ada = await expectDatabaseHas('users', { email: 'ada@example.com', name: 'Ada' })
 * ```
 */
export async function expectDatabaseHas(table: string, where: RowMatch): Promise<Record<string, unknown>> {
  const [row] = await matching(table, where, 1)
  if (row !== undefined) return row
  const rows = await (db() as Kysely<any>).selectFrom(table).selectAll().limit(SHOWN + 1).execute()
  const held = rows.length === 0 ? `"${table}" is empty.` : `"${table}" holds:\n${list(rows)}`
  throw new AssertionError({ message: `Expected a row of "${table}" with ${show(where)}, found none. ${held}` })
}

/**
 * Passes when no row of `table` in the application's database holds every value of `where`, as Laravel's
 * `assertDatabaseMissing`. Fails listing the rows that do.
 *
 * @example
 * ```ts
 * await client.delete('/posts/1')
 * await expectDatabaseMissing('posts', { id: 1 })
 * ```
 */
export async function expectDatabaseMissing(table: string, where: RowMatch): Promise<void> {
  const rows = await matching(table, where, SHOWN + 1)
  if (rows.length === 0) return
  throw new AssertionError({ message: `Expected no row of "${table}" with ${show(where)}, found:\n${list(rows)}` })
}

function matching(table: string, where: RowMatch, limit: number): Promise<Record<string, unknown>[]> {
  let query = (db() as Kysely<any>).selectFrom(table).selectAll()
  for (const [column, value] of Object.entries(where)) {
    query = value === null ? query.where(sql.ref(column), 'is', null) : query.where(sql.ref(column), '=', value)
  }
  return query.limit(limit).execute()
}

function list(rows: readonly Record<string, unknown>[]): string {
  const lines = rows.slice(0, SHOWN).map((row) => `  ${show(row)}`)
  if (rows.length > SHOWN) lines.push('  …and more')
  return lines.join('\n')
}

/** A row as JSON, bigints and dates readable. */
function show(row: RowMatch): string {
  return JSON.stringify(row, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value))
}
