import { sql, type Kysely } from 'kysely'
import { dialectOf } from '../database/dialectOf.js'
import { FW_TABLES as FW_TABLE_NAMES } from '../database/schemaTypes/introspectSchema.js'
import { isSecretColumn } from './secretColumns.js'

/** How a column's values are read, shown and checked, from the type the database reports. */
export type Kind = 'integer' | 'number' | 'boolean' | 'date' | 'datetime' | 'json' | 'string' | 'text' | 'binary'

/** A column a dashboard may show, search, sort by and (unless the database fills it) edit. */
export interface Column {
  name: string
  /** The type as the database reports it: `integer`, `varchar(255)`, `int4`, `timestamptz`… */
  type: string
  kind: Kind
  nullable: boolean
  hasDefault: boolean
  autoIncrement: boolean
  /** The `n` of `varchar(n)`, when the database reports it. */
  maxLength: number | undefined
}

/** One table or view of the database, as a dashboard sees it. */
export interface Table {
  name: string
  isView: boolean
  /** The columns that may be shown, in the database's order: never a secret one. */
  columns: Column[]
  /** The secret columns (see `isSecretColumn`), by name only: their values are never read. */
  secret: string[]
  /** Secret columns a new row needs (not null, no default): such rows cannot be created from a dashboard. */
  requiredSecret: string[]
  /** The column that names one row in URLs (`id`, or the one auto-numbered column); none means rows cannot be opened. */
  key: Column | undefined
  /** Columns the database fills itself, left out of the forms: the auto-numbered key, `created_at`, `updated_at`. */
  managed: Set<string>
  /** A view, or a table listed as read-only: rows are listed and opened, never created, changed or deleted. */
  readOnly: boolean
}

/** What `introspect` leaves out or protects, by table and column name. */
export interface IntrospectOptions {
  /** Tables never listed (the migrator's own are always left out). */
  hidden?: ReadonlySet<string>
  /** Tables listed read-only. */
  readOnly?: ReadonlySet<string>
  /** Column names kept out besides the ones `isSecretColumn` recognises. */
  secret?: ReadonlySet<string>
}

/** The migrator's and the queue's bookkeeping: never listed. */
const FW_TABLES = new Set(FW_TABLE_NAMES)

/**
 * Every table and view of the database, sorted by name, read through kysely's introspection on each
 * call (so a new migration shows up at once), for SQLite and PostgreSQL alike. On PostgreSQL, only
 * those of the current schema, which unqualified names reach: not pg-boss's (`pgboss`) or any other.
 *
 * @example
 * ```ts
 * const tables = await introspect(db, { readOnly: new Set(['access_tokens']) })
 * tables.find((table) => table.name === 'users')?.secret // ['password_hash']
 * ```
 */
export async function introspect(db: Kysely<any>, options: IntrospectOptions = {}): Promise<Table[]> {
  const [found, schema] = await Promise.all([db.introspection.getTables(), currentSchema(db)])
  return found
    .filter((table) => table.schema === schema && !FW_TABLES.has(table.name) && !options.hidden?.has(table.name))
    .map((table) => {
      const all: Column[] = table.columns.map((column) => ({
        name: column.name,
        type: column.dataType,
        kind: kindOf(column.dataType),
        nullable: column.isNullable,
        hasDefault: column.hasDefaultValue,
        autoIncrement: column.isAutoIncrementing,
        maxLength: lengthOf(column.dataType),
      }))
      const isSecret = (column: Column) => isSecretColumn(column.name) || options.secret?.has(column.name) === true
      const columns = all.filter((column) => !isSecret(column))
      const secret = all.filter(isSecret)
      const key = columns.find((column) => column.name === 'id') ?? singleOrNone(columns.filter((column) => column.autoIncrement))
      const managed = new Set<string>()
      if (key && (key.autoIncrement || key.hasDefault)) managed.add(key.name)
      for (const column of columns) {
        if ((column.name === 'created_at' || column.name === 'updated_at') && column.hasDefault) managed.add(column.name)
      }
      return {
        name: table.name,
        isView: table.isView,
        columns,
        secret: secret.map((column) => column.name),
        requiredSecret: secret.filter((column) => !column.nullable && !column.hasDefault && !column.autoIncrement).map((column) => column.name),
        key,
        managed,
        readOnly: table.isView || options.readOnly?.has(table.name) === true,
      }
    })
    .sort((a, b) => a.name.localeCompare(b.name))
}

/** The schema unqualified table names resolve to on PostgreSQL; SQLite's tables have none. */
async function currentSchema(db: Kysely<any>): Promise<string | undefined> {
  if (dialectOf(db) !== 'postgres') return undefined
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db)
  return rows[0]?.schema
}

/**
 * The kind of a column from the type its database reports.
 *
 * @example
 * ```ts
 * kindOf('varchar(255)') // 'string'
 * kindOf('timestamptz') // 'datetime'
 * ```
 */
export function kindOf(type: string): Kind {
  const t = type.toLowerCase()
  if (/bool/.test(t)) return 'boolean'
  if (/^(int|integer|smallint|bigint|tinyint|mediumint|int2|int4|int8|serial|smallserial|bigserial)\b/.test(t)) return 'integer'
  if (/^(real|float|double|numeric|decimal|float4|float8|money)\b/.test(t)) return 'number'
  if (/^(timestamp|datetime)/.test(t)) return 'datetime'
  if (t === 'date') return 'date'
  if (/json/.test(t)) return 'json'
  if (/blob|bytea|binary/.test(t)) return 'binary'
  if (/text|clob/.test(t)) return 'text'
  return 'string'
}

function lengthOf(type: string): number | undefined {
  const match = /char[^(]*\((\d+)\)/i.exec(type)
  return match ? Number(match[1]) : undefined
}

function singleOrNone<T>(items: T[]): T | undefined {
  return items.length === 1 ? items[0] : undefined
}
