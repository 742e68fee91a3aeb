import type { CompiledQuery } from 'kysely'
import type { PoolOptions, TypeCastField, TypeCastNext } from 'mysql2'

// mysql2's defaults differ from what SQLite and PostgreSQL give in Fw, and depend on the process's time zone:
// booleans (MySQL's `tinyint(1)`) as 1/0, timestamps written and read in local time, dates as local midnights,
// bigints past 2^53 rounded, an object parameter written as `key = value` pairs and an array as a list. These
// give a query on MySQL and MariaDB the values the other two give (see the README's "Database").

/**
 * The value options of a mysql2 pool. Timestamps are written and read as UTC (`timezone: 'Z'`, with the session's
 * `time_zone` set to UTC too, see `mysqlDialect.ts`); a `date` comes back as its `YYYY-MM-DD` text; a bigint is a
 * number when it is a safe integer, else its digits; decimals stay exact strings and json is parsed (mysql2's own
 * defaults, MariaDB's json from mysql2 3.23 on).
 */
export const MYSQL_VALUE_OPTIONS = {
  timezone: 'Z',
  dateStrings: ['DATE'],
  supportBigNumbers: true,
  bigNumberStrings: false,
  typeCast: mysqlTypeCast,
} as const satisfies PoolOptions

/**
 * mysql2's `typeCast`: a `tinyint(1)` column, which is what MySQL makes of `boolean`, as `true`/`false`; every
 * other column as mysql2 reads it. The display width 1 is the only mark of a boolean, so any `tinyint(1)` is read as
 * one, as Laravel and the other ORMs on MySQL do.
 *
 * @example
 * ```ts
 * mysql2.createPool({ uri, typeCast: mysqlTypeCast })
 * ```
 */
export function mysqlTypeCast(field: TypeCastField, next: TypeCastNext): unknown {
  if (field.type === 'TINY' && field.length === 1) {
    const text = field.string()
    return text === null ? null : text !== '0'
  }
  return next()
}

/**
 * A parameter as Fw writes it to MySQL: an object or array as JSON text, as on SQLite and PostgreSQL, so that it
 * fits a json column (mysql2 would write an object as `key = value` pairs and an array as a list). A Date that is
 * not a time is a TypeError: mysql2 would write it as NULL without a word. Everything else goes to mysql2 as it is
 * (a Date in UTC, booleans as `true`/`false`, bigints as digits, bytes as a hex literal).
 */
export function toMysqlParameter(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || value instanceof Uint8Array) return value
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new TypeError('Invalid Date given as a query parameter: MySQL would store NULL')
    return value
  }
  return JSON.stringify(value)
}

/** The query with its parameters as `toMysqlParameter` writes them: the same query when none needs a change. */
export function withMysqlParameters(query: CompiledQuery): CompiledQuery {
  const { parameters } = query
  for (let index = 0; index < parameters.length; index++) {
    const value = parameters[index]
    if (typeof value === 'object' && value !== null && !(value instanceof Uint8Array) && !(value instanceof Date && !Number.isNaN(value.getTime()))) {
      return { ...query, parameters: parameters.map(toMysqlParameter) }
    }
  }
  return query
}
