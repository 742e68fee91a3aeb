import type { IntrospectedColumn } from './introspectSchema.js'
import type { DialectName } from '../dialectOf.js'

/**
 * The types a generated schema declares beside its tables, named where a column uses them. Each is the value form
 * Fw's `db` gives (and takes) on SQLite and PostgreSQL alike, so one file types both databases: this is the one
 * place to change when a form changes.
 */
export const VALUE_TYPES = {
  Timestamp: {
    doc: '`timestamp`, `timestamptz`, `datetime`: a `Date` (UTC) when read; a `Date` or a string when written.',
    type: 'ColumnType<Date, Date | string, Date | string>',
  },
  DateString: {
    doc: "`date`: `'YYYY-MM-DD'` when read; that string, or a `Date` (its UTC day), when written.",
    type: 'ColumnType<string, string | Date, string | Date>',
  },
  Int8: {
    doc: '`bigint`: a `number`, or a `string` on PostgreSQL past `Number.MAX_SAFE_INTEGER`; written as a number, string or bigint.',
    type: 'ColumnType<number | string, number | string | bigint, number | string | bigint>',
  },
  Numeric: {
    doc: '`numeric`, `decimal`: a string, which keeps every digit; written as a string or a number.',
    type: 'ColumnType<string, string | number, string | number>',
  },
  JsonValue: {
    doc: '`json`, `jsonb`: the parsed value when read; a value (stored as JSON) when written.',
    type: 'string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue | undefined }',
  },
} as const

export type ValueTypeName = keyof typeof VALUE_TYPES

type Form = ValueTypeName | 'boolean' | 'number' | 'string' | 'Buffer' | 'number | string' | 'unknown'

/**
 * Type names Fw knows, lower case and without a length or precision: the same form on both databases, so that a
 * migration gives one schema file whichever database ran it.
 */
const NAMED: Record<string, Form> = {}
const name = (form: Form, ...types: string[]) => types.forEach((type) => (NAMED[type] = form))
name('boolean', 'boolean', 'bool')
name('number', 'smallint', 'int2', 'integer', 'int', 'int4', 'serial', 'serial4', 'smallserial', 'serial2', 'oid')
name('number', 'real', 'float4', 'float', 'double', 'double precision', 'float8')
name('Int8', 'bigint', 'int8', 'bigserial', 'serial8')
name('Numeric', 'numeric', 'decimal')
name('JsonValue', 'json', 'jsonb')
name('Timestamp', 'timestamp', 'timestamptz', 'datetime', 'timestamp with time zone', 'timestamp without time zone')
name('DateString', 'date')
name('string', 'text', 'varchar', 'character varying', 'char', 'character', 'bpchar', 'name', 'citext', 'uuid')
name('string', 'time', 'timetz', 'time with time zone', 'time without time zone', 'xml', 'inet', 'cidr', 'macaddr', 'macaddr8')
name('Buffer', 'bytea', 'blob')
// MySQL's and MariaDB's own names (a `tinyint(1)` and MariaDB's json are told apart before, by introspectSchema).
name('number', 'tinyint', 'mediumint', 'year')
name('string', 'tinytext', 'mediumtext', 'longtext', 'enum', 'set', 'inet4', 'inet6')
name('Buffer', 'tinyblob', 'mediumblob', 'longblob', 'binary', 'varbinary')

/** What a column holds, as a TypeScript type, before `| null` and `Generated<…>`; `uses` names the value type it needs. */
export interface ColumnType {
  type: string
  uses?: ValueTypeName
  /** A PostgreSQL enum, for a union of its labels declared once under a name of the file's (`type` is then empty). */
  enum?: { name: string; labels: string[] }
}

/**
 * The TypeScript type of a column's values: a type Fw knows by name maps to its value form on both databases;
 * any other SQLite declared type goes by SQLite's affinity rules (https://www.sqlite.org/datatype3.html#affinity_name_examples:
 * `varchar(255)` is text, `BIGINT UNSIGNED` an integer); any other PostgreSQL type is `unknown`.
 *
 * @example
 * ```ts
 * columnType({ name: 'published', type: 'boolean', array: false, nullable: false, generated: 'default' }, 'sqlite')
 * // { type: 'boolean' }
 * ```
 */
export function columnType(column: IntrospectedColumn, dialect: DialectName): ColumnType {
  if (column.enumLabels) {
    const labels = [...column.enumLabels].sort(byCodePoint)
    // pg gives an array of enums as its text (`{a,b}`): it knows no parser for the enum's type.
    return column.array ? { type: 'string' } : { type: '', enum: { name: column.type, labels } }
  }
  const form = NAMED[baseName(column.type)] ?? (dialect === 'sqlite' ? affinity(column.type) : 'unknown')
  if (column.array) {
    // pg parses arrays of its own types; the forms Fw converts (dates, big integers) it leaves as pg gives them.
    return ['boolean', 'number', 'string', 'JsonValue'].includes(form) ? withUses(form, `${form}[]`) : { type: 'unknown' }
  }
  return withUses(form, form)
}

function withUses(form: Form, type: string): ColumnType {
  return form in VALUE_TYPES ? { type, uses: form as ValueTypeName } : { type }
}

/** `VARCHAR(255)` → `varchar`, `timestamp(3) with time zone` → `timestamp with time zone`. */
function baseName(declared: string): string {
  return declared.toLowerCase().replace(/\([^)]*\)/g, ' ').replace(/\s+/g, ' ').trim()
}

/** SQLite's rules for a declared type it does not know, in its order. */
function affinity(declared: string): Form {
  const type = declared.toUpperCase()
  if (type.includes('INT')) return 'number'
  if (/CHAR|CLOB|TEXT/.test(type)) return 'string'
  if (type.includes('BLOB')) return 'Buffer'
  // No declared type: a column that keeps whatever it is given.
  if (type.trim() === '') return 'unknown'
  if (/REAL|FLOA|DOUB/.test(type)) return 'number'
  // NUMERIC affinity: a value that reads as a number is stored as one, any other as text.
  return 'number | string'
}

/** Sorts the same on every machine, whatever its locale. */
export function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
