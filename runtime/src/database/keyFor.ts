import type { Kysely } from 'kysely'
import { dialectOf } from './dialectOf.js'

/**
 * The type of a key column: `integer` (PostgreSQL's `integer`, what `id(db)` makes: 32 bits there, 64 on
 * SQLite, where every integer has 64), `bigint`, `smallint`, `uuid`, or `string` (any text).
 */
export type KeyType = 'integer' | 'bigint' | 'smallint' | 'uuid' | 'string'

const INTEGER_TEXT = /^[+-]?\d+$/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const INT64: readonly [bigint, bigint] = [-(2n ** 63n), 2n ** 63n - 1n]
const RANGES: Record<'integer' | 'bigint' | 'smallint', { postgres: readonly [bigint, bigint]; sqlite: readonly [bigint, bigint] }> = {
  smallint: { postgres: [-(2n ** 15n), 2n ** 15n - 1n], sqlite: INT64 },
  integer: { postgres: [-(2n ** 31n), 2n ** 31n - 1n], sqlite: INT64 },
  bigint: { postgres: INT64, sqlite: INT64 },
}

/**
 * The value to compare a key column with, for a key from a URL or a form (`/posts/{id}`); `undefined` when
 * no row can have that key, so look nothing up: answer "not found". PostgreSQL refuses to compare an integer
 * column with `abc` (22P02) or `99999999999999999999` (22003), which fails the query, and inside a
 * transaction every query after it, where SQLite finds nothing; with this, both find nothing. Integers come
 * back as numbers (digits past 2^53 as their text, which the database reads exactly), uuids in lower case,
 * text without NUL (which PostgreSQL refuses) as it is. Never throws.
 *
 * @example
 * ```ts
 * const key = keyFor(db, 'integer', id)
 * const post = key === undefined ? undefined : await db.selectFrom('posts').selectAll().where('id', '=', key).executeTakeFirst()
 * if (!post) throw new HttpError(404, 'Not Found')
 * ```
 */
export function keyFor(db: Kysely<any>, type: KeyType, value: unknown): number | string | undefined {
  if (type === 'string') {
    const text = typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'bigint' ? String(value) : undefined
    return text === undefined || text.includes('\0') ? undefined : text
  }
  if (type === 'uuid') return typeof value === 'string' && UUID.test(value) ? value.toLowerCase() : undefined
  const whole = wholeNumber(value)
  if (whole === undefined) return undefined
  const [least, most] = RANGES[type][dialectOf(db)]
  if (whole < least || whole > most) return undefined
  const number = Number(whole)
  return Number.isSafeInteger(number) ? number : String(whole)
}

function wholeNumber(value: unknown): bigint | undefined {
  if (typeof value === 'bigint') return value
  if (typeof value === 'number') return Number.isSafeInteger(value) ? BigInt(value) : undefined
  if (typeof value === 'string' && INTEGER_TEXT.test(value)) return BigInt(value)
  return undefined
}
