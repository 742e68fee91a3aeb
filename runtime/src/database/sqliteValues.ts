import { parseTimestamp } from './parseTimestamp.js'

// SQLite keeps booleans as 1/0, JSON as text and times as text, and its driver (better-sqlite3) binds
// only numbers, strings, bigints, buffers and null. These conversions give a query on SQLite the values
// PostgreSQL gives (see the README's "Database"): parameters on the way in, result columns by the type
// their table declares on the way out.

/** One result column to convert: its name in the row, and how. */
export type ColumnConversion = readonly [name: string, convert: (value: unknown) => unknown]

/** What `Statement#columns()` of better-sqlite3 reports about a result column. */
export interface ResultColumn {
  name: string
  /** The declared type of the table column it comes from; null for an expression. */
  type: string | null
}

/**
 * A parameter as SQLite stores it: `true`/`false` as 1/0, a `Date` as `YYYY-MM-DD HH:MM:SS.SSS` in UTC (the
 * form SQLite's date functions read and sort), an object or array as JSON text. Anything else is unchanged.
 */
export function toSqliteParameter(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0
  if (typeof value !== 'object' || value === null || value instanceof Uint8Array) return value
  if (value instanceof Date) return value.toISOString().replace('T', ' ').slice(0, 23)
  return JSON.stringify(value)
}

/** The parameters as SQLite stores them (see `toSqliteParameter`): the same array when none needs a change. */
export function toSqliteParameters(parameters: readonly unknown[]): readonly unknown[] {
  for (let index = 0; index < parameters.length; index++) {
    const value = parameters[index]
    if (typeof value === 'boolean' || (typeof value === 'object' && value !== null && !(value instanceof Uint8Array))) {
      return parameters.map(toSqliteParameter)
    }
  }
  return parameters
}

/**
 * The conversions a statement's rows need, from the declared types of its result columns: none (an
 * empty list) for most statements, which then cost nothing per row. A column computed by an expression
 * (`count(*)`, `cast(…)`) has no declared type and comes back as SQLite gives it.
 */
export function columnConversions(columns: readonly ResultColumn[]): ColumnConversion[] {
  const byName = new Map<string, ColumnConversion['1'] | undefined>()
  // Two columns of one name: the row holds the last one's value.
  for (const column of columns) byName.set(column.name, column.type === null ? undefined : conversionFor(column.type))
  const conversions: ColumnConversion[] = []
  for (const [name, convert] of byName) if (convert) conversions.push([name, convert])
  return conversions
}

/** Converts the rows in place. */
export function convertRows(rows: unknown[], conversions: readonly ColumnConversion[]): void {
  // Column by column: each loop reads and writes one property name with one function, which V8 keeps fast.
  for (const [name, convert] of conversions) {
    for (let index = 0; index < rows.length; index++) {
      const row = rows[index] as Record<string, unknown>
      row[name] = convert(row[name])
    }
  }
}

/** `numeric`, `decimal(8)`, `NUMERIC(10, 2)`: the scale is the second number. */
const DECIMAL = /^(?:numeric|decimal)\s*(?:\(\s*\d+\s*(?:,\s*(\d+)\s*)?\))?$/i

function conversionFor(declared: string): ColumnConversion['1'] | undefined {
  const decimal = DECIMAL.exec(declared.trim())
  if (decimal) return toDecimal(decimal[1] === undefined ? undefined : Number(decimal[1]))
  const type = declared.toLowerCase().replace(/\(.*$/, '').trim()
  if (type === 'boolean' || type === 'bool') return toBoolean
  if (type === 'json') return fromJson
  if (type === 'jsonb') return fromJsonb
  if (type === 'date') return toDate
  if (type === 'datetime' || type.startsWith('timestamp')) return toTimestamp
  return undefined
}

/**
 * A decimal as PostgreSQL gives it, a string: SQLite stores it as a float (or an integer), written here with
 * the column's scale (`19.9` as `'19.90'` in a `numeric(10, 2)`).
 */
function toDecimal(scale: number | undefined): ColumnConversion['1'] {
  if (scale === undefined) return (value) => (typeof value === 'number' || typeof value === 'bigint' ? String(value) : value)
  return (value) => (typeof value === 'number' ? value.toFixed(scale) : typeof value === 'bigint' ? String(value) : value)
}

function toBoolean(value: unknown): unknown {
  if (typeof value === 'number') return value !== 0
  if (typeof value === 'bigint') return value !== 0n
  return value
}

/** JSON text parsed; a value that is not JSON text (written before Fw converted values) stays as it is. */
function fromJson(value: unknown): unknown {
  if (typeof value !== 'string') return value
  try {
    return JSON.parse(value)
  } catch {
    return value
  }
}

/** As `fromJson`, with objects' keys in PostgreSQL's jsonb order, which stores them sorted. */
function fromJsonb(value: unknown): unknown {
  return inJsonbOrder(fromJson(value))
}

/** jsonb orders an object's keys by their UTF-8 bytes, shorter first. */
function inJsonbOrder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(inJsonbOrder)
  if (typeof value !== 'object' || value === null) return value
  const keys = Object.keys(value)
    .map((key) => ({ key, bytes: Buffer.from(key) }))
    .sort((a, b) => a.bytes.length - b.bytes.length || Buffer.compare(a.bytes, b.bytes))
  return Object.fromEntries(keys.map(({ key }) => [key, inJsonbOrder((value as Record<string, unknown>)[key])]))
}

function toTimestamp(value: unknown): unknown {
  return typeof value === 'string' ? (parseTimestamp(value) ?? value) : value
}

/** `YYYY-MM-DD`: a `Date` written to a date column is stored with its time, which is left out. */
function toDate(value: unknown): unknown {
  return typeof value === 'string' && value.length > 10 && /^\d{4}-\d{2}-\d{2}[T ]/.test(value) ? value.slice(0, 10) : value
}
