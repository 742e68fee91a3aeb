import type { CompiledQuery } from 'kysely'
import { parseTimestamp } from './parseTimestamp.js'

// pg's defaults differ from what SQLite gives and depend on the process's time zone: timestamps parsed
// in local time, dates as local midnights, every bigint as a string, a Date parameter written in
// local time (which a `timestamp` column keeps without its offset), a JS array sent as a PostgreSQL array.
// These give a query on PostgreSQL the values SQLite gives (see the README's "Database").

/** pg's type ids (`pg_type.oid`) that Fw reads its own way. */
const BOOL = 16
const INT8 = 20
const JSON_TYPE = 114
const JSONB = 3802
const DATE = 1082
const TIMESTAMP = 1114
const TIMESTAMPTZ = 1184

/** A bigint: a number when it is a safe integer, else its digits, which a JS number would change. */
function parseInt8(text: string): number | string {
  const value = Number(text)
  return Number.isSafeInteger(value) ? value : text
}

/** A timestamp as a Date; `infinity` (which a Date cannot hold) as PostgreSQL's text. */
function parseDate(text: string): Date | string {
  return parseTimestamp(text) ?? text
}

function asText(text: string): string {
  return text
}

const PARSERS = new Map<number, (text: string) => unknown>([
  [INT8, parseInt8],
  [DATE, asText],
  [TIMESTAMP, parseDate],
  [TIMESTAMPTZ, parseDate],
])

/**
 * The `types` option of a pg pool: Fw's parsers for the types above, pg's own for the rest (booleans, json
 * and jsonb parsed, integers as numbers, numeric as its text with every digit). Per pool, so that pg's
 * process-wide defaults stay as they are.
 */
export function postgresTypes(pg: typeof import('pg')): { getTypeParser: typeof import('pg').types.getTypeParser } {
  return {
    getTypeParser: ((id: number, format?: 'text' | 'binary') => (format !== 'binary' && PARSERS.get(id)) || pg.types.getTypeParser(id, format)) as typeof pg.types.getTypeParser,
  }
}

/**
 * A parameter as Fw writes it to PostgreSQL: a `Date` in UTC (ISO 8601, which a `timestamp` column takes
 * as the UTC time and a `timestamptz` as the instant), an array as JSON text, as on SQLite, so that it
 * fits a json column. Everything else goes to pg as it is (an object becomes JSON there).
 */
export function toPostgresParameter(value: unknown): unknown {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? value : value.toISOString()
  if (Array.isArray(value)) return JSON.stringify(value)
  return value
}

/** The query with its parameters as `toPostgresParameter` writes them: the same query when none needs a change. */
export function withPostgresParameters(query: CompiledQuery): CompiledQuery {
  const { parameters } = query
  for (let index = 0; index < parameters.length; index++) {
    const value = parameters[index]
    if (value instanceof Date || Array.isArray(value)) return { ...query, parameters: parameters.map(toPostgresParameter) }
  }
  return query
}

/** A value postgres.js serializes for a parameter of a type it knows: a JS value as pg sends it, text as it is. */
const asTimestamp = (value: unknown) => (value instanceof Date ? value.toISOString() : String(value))
const asJson = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value))
const asBoolean = (value: unknown) => (value === true ? 't' : value === false ? 'f' : String(value))

/**
 * postgres.js's `types` option. It reads with the parsers of `postgresTypes`, for the same type ids (its own parse
 * the rest as pg does: booleans, json and jsonb, integers and floats as numbers, numeric as text). A prepared
 * statement's parameters are written by the type PostgreSQL says they have, and these writers take what pg
 * sends: text as it is (JSON text into a json column, `'2024-05-01 12:00:00'` into a timestamp), else the value.
 */
export function postgresJsTypes() {
  return {
    bigint: { to: INT8, from: [INT8], serialize: String, parse: parseInt8 },
    date: { to: TIMESTAMPTZ, from: [TIMESTAMP, TIMESTAMPTZ], serialize: asTimestamp, parse: parseDate },
    day: { to: DATE, from: [DATE], serialize: String, parse: asText },
    json: { to: JSON_TYPE, from: [JSON_TYPE, JSONB], serialize: asJson, parse: JSON.parse },
    boolean: { to: BOOL, from: [BOOL], serialize: asBoolean, parse: (text: string) => text === 't' },
  }
}

/**
 * A parameter as Fw gives it to postgres.js: as `toPostgresParameter` writes it, and then as pg sends a value
 * (an object as JSON, a boolean or bigint as its text), so that PostgreSQL gives it the type of the column or
 * expression it meets, as under pg.
 */
export function toPostgresText(value: unknown): unknown {
  switch (typeof value) {
    case 'string':
    case 'number':
      return value
    case 'boolean':
    case 'bigint':
      return String(value)
    case 'undefined':
      return null
  }
  if (value === null || value instanceof Uint8Array || value instanceof Date || Array.isArray(value)) return toPostgresParameter(value)
  return JSON.stringify(value)
}
