/**
 * What a model's primary key column holds: `integer` (the default, `id(db)`'s column: 32-bit on PostgreSQL),
 * `bigint` (64-bit), `uuid`, or any `string`.
 */
export type KeyType = 'integer' | 'bigint' | 'uuid' | 'string'

const INTEGER = /^-?\d+$/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const INT4 = { min: -(2n ** 31n), max: 2n ** 31n - 1n }
const INT8 = { min: -(2n ** 63n), max: 2n ** 63n - 1n }

/**
 * The key as the column holds it, or undefined when the column cannot hold it (`abc`, `1.5` or
 * `99999999999999999999` for an integer key, `abc` for a uuid, text with a NUL): such a key finds no row, on every database,
 * without asking it (PostgreSQL would refuse the comparison, SQLite would compare text with numbers).
 *
 * @example
 * ```ts
 * modelKey('integer', '42')  // 42
 * modelKey('integer', 'abc') // undefined
 * ```
 */
export function modelKey(type: KeyType, key: unknown): number | string | undefined {
  // PostgreSQL's text holds no NUL: comparing with one fails the query (22021).
  if (type === 'string') return (typeof key === 'string' && !key.includes('\0')) || typeof key === 'number' ? String(key) : undefined
  if (type === 'uuid') return typeof key === 'string' && UUID.test(key) ? key.toLowerCase() : undefined
  const text = typeof key === 'number' ? (Number.isInteger(key) ? String(key) : '') : typeof key === 'string' || typeof key === 'bigint' ? String(key) : ''
  if (!INTEGER.test(text)) return undefined
  const value = BigInt(text)
  const range = type === 'integer' ? INT4 : INT8
  if (value < range.min || value > range.max) return undefined
  return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString()
}
