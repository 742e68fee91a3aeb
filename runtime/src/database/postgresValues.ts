import type { CompiledQuery } from 'kysely'
import { parseTimestamp } from './parseTimestamp.js'

// pg's defaults differ from what SQLite gives and depend on the process's time zone: timestamps parsed
// in local time, dates as local midnights, every bigint as a string, a Date parameter written in
// local time (which a `timestamp` column keeps without its offset), a JS array sent as a PostgreSQL array.
// These give a query on PostgreSQL the values SQLite gives (see the README's "Database").

/** pg's type ids (`pg_type.oid`) that Fw reads its own way. */
const INT8 = 20
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
