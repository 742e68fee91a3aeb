import { sql, type Kysely } from 'kysely'
import { JOBS_TABLE } from '../../queue/jobsTable.js'
import { QUEUE_RESTARTS_TABLE } from '../../queue/queueRestarts.js'
import { MAINTENANCE_TABLE } from '../../maintenance/maintenanceTable.js'
import { RATE_LIMITS_TABLE } from '../../ratelimit/DatabaseRateLimitStore.js'
import { SCHEDULE_RUNS_TABLE } from '../../schedule/scheduleRuns.js'
import { dialectOf, type DialectName } from '../dialectOf.js'
import { MIGRATIONS_LOCK_TABLE } from '../MigrationLock.js'
import { MIGRATIONS_TABLE } from '../Migrator.js'

/** One column as the database describes it, before it is given a TypeScript type. */
export interface IntrospectedColumn {
  name: string
  /**
   * The declared type: on SQLite as the migration wrote it, in lower case (`varchar(255)`, `boolean`); on PostgreSQL
   * the type's name (`int4`, `timestamptz`, an enum's), a domain's base type in place of the domain; on MySQL the
   * type's name (`int`, `longtext`), with `boolean` for a `tinyint(1)` and `json` for MariaDB's json (see `mysqlTables`).
   */
  type: string
  /** PostgreSQL: an array of `type`. */
  array: boolean
  /** PostgreSQL: the enum `type` names, with its labels. */
  enumLabels?: string[]
  nullable: boolean
  /** `default`: the database fills it when an insert leaves it out (a key it numbers, a default); `always`: it can never be written. */
  generated: 'no' | 'default' | 'always'
}

export interface IntrospectedTable {
  /** The table (or view) as queries name it; on PostgreSQL, of the current schema. */
  name: string
  columns: IntrospectedColumn[]
}

export interface IntrospectedSchema {
  dialect: DialectName
  /** The application's tables and views, without Fw's own (the migrator's, the queue's, the scheduler's), in no set order. */
  tables: IntrospectedTable[]
}

/** The tables Fw keeps for itself in the application's database: neither typed in schema.d.ts nor shown on a dashboard. */
export const FW_TABLES: readonly string[] = [MIGRATIONS_TABLE, MIGRATIONS_LOCK_TABLE, JOBS_TABLE, QUEUE_RESTARTS_TABLE, SCHEDULE_RUNS_TABLE, RATE_LIMITS_TABLE, MAINTENANCE_TABLE]

/**
 * The tables and columns of a database, read from its catalog: SQLite's `pragma_table_xinfo`, PostgreSQL's
 * `pg_attribute` and `pg_type` (which name enums and domains, as kysely-codegen reads them), MySQL's
 * `information_schema`.
 *
 * @example
 * ```ts
 * const { tables } = await introspectSchema(db)
 * tables.find((table) => table.name === 'posts')?.columns.map((column) => column.name)
 * ```
 */
export async function introspectSchema(db: Kysely<any>): Promise<IntrospectedSchema> {
  const dialect = dialectOf(db)
  const tables = dialect === 'postgres' ? await postgresTables(db) : dialect === 'mysql' ? await mysqlTables(db) : await sqliteTables(db)
  return { dialect, tables }
}

interface SqliteColumnRow {
  table: string
  definition: string | null
  name: string
  type: string
  notnull: number
  dflt_value: string | null
  pk: number
  hidden: number
}

async function sqliteTables(db: Kysely<any>): Promise<IntrospectedTable[]> {
  const { rows } = await sql<SqliteColumnRow>`
    select m.name as "table", m.sql as definition, p.name, p.type, p."notnull", p.dflt_value, p.pk, p.hidden
    from sqlite_master as m join pragma_table_xinfo(m.name) as p
    where m.type in ('table', 'view') and m.name not like 'sqlite_%' and m.name not in (${sql.join(FW_TABLES)})
    order by m.name, p.cid`.execute(db)
  const { rows: foreign } = await sql<{ table: string; name: string }>`
    select m.name as "table", f."from" as name
    from sqlite_master as m join pragma_foreign_key_list(m.name) as f
    where m.type = 'table' and m.name not like 'sqlite_%'`.execute(db)
  const references = new Set(foreign.map((row) => `${row.table}.${row.name}`))
  const tables = new Map<string, SqliteColumnRow[]>()
  for (const row of rows) {
    // 1 is a virtual table's hidden column (FTS5's rank); 2 and 3 are generated columns.
    if (row.hidden === 1) continue
    tables.set(row.table, [...(tables.get(row.table) ?? []), row])
  }
  return [...tables].map(([name, columns]) => {
    const keys = columns.filter((column) => column.pk > 0)
    const withoutRowid = /\bwithout\s+rowid\b/i.test(columns[0]?.definition ?? '')
    // https://www.sqlite.org/lang_createtable.html#rowid: a lone `integer primary key` is the rowid, numbered by SQLite.
    // Not one that references another table's key (make:auth's password_reset_tokens.user_id): the application
    // writes it, and on PostgreSQL the same column has no default, so both databases give the same schema.d.ts.
    const key = keys.length === 1 && !withoutRowid && keys[0]!.type.toLowerCase() === 'integer' ? keys[0]!.name : undefined
    const rowid = key !== undefined && !references.has(`${name}.${key}`) ? key : undefined
    return {
      name,
      columns: columns.map((column) => ({
        name: column.name,
        type: column.type.toLowerCase(),
        array: false,
        // A key column is never null, as on PostgreSQL (SQLite lets a non-integer one be, for backwards compatibility only).
        nullable: column.notnull === 0 && column.pk === 0,
        generated: column.hidden >= 2 ? 'always' : column.name === rowid || column.dflt_value !== null ? 'default' : 'no',
      })),
    }
  })
}

interface PostgresColumnRow {
  table: string
  name: string
  type: number
  notnull: boolean
  hasdefault: boolean
  identity: string
  generated: string
}

interface PostgresTypeRow {
  oid: number
  name: string
  kind: string
  base: number
  element: number
  category: string
}

async function postgresTables(db: Kysely<any>): Promise<IntrospectedTable[]> {
  const [columns, types, labels] = await Promise.all([
    sql<PostgresColumnRow>`
      select c.relname as "table", a.attname as name, a.atttypid::int as type, a.attnotnull as notnull,
        a.atthasdef as hasdefault, a.attidentity as identity, a.attgenerated as generated
      from pg_attribute as a
      join pg_class as c on c.oid = a.attrelid
      join pg_namespace as n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind in ('r', 'p', 'v', 'm', 'f') and not c.relispartition
        and a.attnum > 0 and not a.attisdropped and c.relname not in (${sql.join(FW_TABLES)})
      order by c.relname, a.attnum`.execute(db),
    sql<PostgresTypeRow>`
      select oid::int, typname as name, typtype as kind, typbasetype::int as base, typelem::int as element, typcategory as category
      from pg_type`.execute(db),
    sql<{ type: number; label: string }>`select enumtypid::int as type, enumlabel as label from pg_enum order by enumtypid, enumsortorder`.execute(db),
  ])
  const typeById = new Map(types.rows.map((type) => [type.oid, type]))
  const labelsByType = new Map<number, string[]>()
  for (const { type, label } of labels.rows) labelsByType.set(type, [...(labelsByType.get(type) ?? []), label])
  // A domain is its base type; an array names its element's type.
  const resolve = (id: number): { type: PostgresTypeRow | undefined; array: boolean } => {
    let type = typeById.get(id)
    while (type?.kind === 'd') type = typeById.get(type.base)
    if (type?.category === 'A' && type.element !== 0) {
      let element = typeById.get(type.element)
      while (element?.kind === 'd') element = typeById.get(element.base)
      return { type: element, array: true }
    }
    return { type, array: false }
  }
  const tables = new Map<string, IntrospectedColumn[]>()
  for (const row of columns.rows) {
    const { type, array } = resolve(row.type)
    const enumLabels = type?.kind === 'e' ? labelsByType.get(type.oid) ?? [] : undefined
    tables.set(row.table, [
      ...(tables.get(row.table) ?? []),
      {
        name: row.name,
        type: type?.name ?? 'unknown',
        array,
        ...(enumLabels ? { enumLabels } : {}),
        nullable: !row.notnull,
        generated: row.identity === 'a' || row.generated !== '' ? 'always' : row.identity === 'd' || row.hasdefault ? 'default' : 'no',
      },
    ])
  }
  return [...tables].map(([name, columns]) => ({ name, columns }))
}

interface MysqlColumnRow {
  table: string
  kind: string
  name: string
  type: string
  column_type: string
  nullable: string
  fallback: string | null
  extra: string
}

/**
 * MySQL's and MariaDB's columns, typed as the same migration types them on SQLite and PostgreSQL: a `tinyint(1)` is
 * `boolean` (what MySQL makes of one, and what Fw reads it as), MariaDB's `json` (a `longtext` with a `json_valid`
 * check named after its column) is `json`. A view's columns are all nullable and never generated, as the other two
 * databases report them (MariaDB passes its tables' `not null` and defaults through).
 */
async function mysqlTables(db: Kysely<any>): Promise<IntrospectedTable[]> {
  const [columns, checks, version] = await Promise.all([
    sql<MysqlColumnRow>`
      select c.TABLE_NAME as \`table\`, t.TABLE_TYPE as kind, c.COLUMN_NAME as name, c.DATA_TYPE as type, c.COLUMN_TYPE as column_type,
        c.IS_NULLABLE as nullable, c.COLUMN_DEFAULT as fallback, c.EXTRA as extra
      from information_schema.COLUMNS as c
      join information_schema.TABLES as t on t.TABLE_SCHEMA = c.TABLE_SCHEMA and t.TABLE_NAME = c.TABLE_NAME
      where c.TABLE_SCHEMA = database() and t.TABLE_TYPE in ('BASE TABLE', 'VIEW') and c.TABLE_NAME not in (${sql.join(FW_TABLES)})
      order by c.TABLE_NAME, c.ORDINAL_POSITION`.execute(db),
    mysqlJsonChecks(db),
    sql<{ version: string }>`select version() as version`.execute(db),
  ])
  // MariaDB writes "no default" of a nullable column as the text NULL; MySQL as SQL NULL.
  const mariadb = /mariadb/i.test(version.rows[0]?.version ?? '')
  const tables = new Map<string, IntrospectedColumn[]>()
  for (const row of columns.rows) {
    const view = row.kind === 'VIEW'
    const type = row.column_type.toLowerCase() === 'tinyint(1)' ? 'boolean' : checks.has(`${row.table}.${row.name}`) ? 'json' : row.type.toLowerCase()
    const hasDefault = row.fallback !== null && !(mariadb && row.fallback === 'NULL')
    const extra = row.extra.toLowerCase()
    tables.set(row.table, [
      ...(tables.get(row.table) ?? []),
      {
        name: row.name,
        type,
        array: false,
        nullable: view || row.nullable === 'YES',
        generated: view ? 'no' : extra.includes('generated') ? 'always' : extra.includes('auto_increment') || hasDefault ? 'default' : 'no',
      },
    ])
  }
  return [...tables].map(([name, columns]) => ({ name, columns }))
}

/** MariaDB's json columns, as `table.column`: each has a `json_valid` check named after it. MySQL 8's are of type json. */
async function mysqlJsonChecks(db: Kysely<any>): Promise<Set<string>> {
  try {
    const { rows } = await sql<{ table: string; name: string; clause: string }>`
      select TABLE_NAME as \`table\`, CONSTRAINT_NAME as name, CHECK_CLAUSE as clause
      from information_schema.CHECK_CONSTRAINTS where CONSTRAINT_SCHEMA = database()`.execute(db)
    return new Set(rows.filter((row) => row.clause === `json_valid(\`${row.name}\`)`).map((row) => `${row.table}.${row.name}`))
  } catch {
    // MySQL 8's CHECK_CONSTRAINTS has no TABLE_NAME column, and needs none here.
    return new Set()
  }
}
