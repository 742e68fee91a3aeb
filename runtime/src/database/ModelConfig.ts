import type { Kysely } from 'kysely'
import type { KeyType } from './modelKey.js'

/** Where a model class keeps its configuration: `Model(table, options)` puts it there. */
export const MODEL = Symbol('fw.model')

/** Makes the query of a model class on a database (aliased in a subquery); relations call it on the related model. */
export const NEW_QUERY = Symbol('fw.newQuery')

/** A model's table and options, resolved once when `Model(table, options)` runs. */
export interface ModelConfig {
  readonly table: string
  readonly primaryKey: string
  readonly keyType: KeyType
  readonly timestamps: boolean
  readonly softDeletes: boolean
  /** Columns left out of JSON: non-enumerable on every row the model returns. */
  readonly hidden: readonly string[]
  /** The columns `create`, `update` and `updateOrCreate` write; undefined: every column. */
  readonly fillable: ReadonlySet<string> | undefined
  /** The database, looked up on each query (the container's `db` service unless the model names another). */
  readonly database: () => Kysely<any>
}

/** The configuration of a model class; a class that `Model(table)` did not make is a programming error. */
export function modelConfig(model: object): ModelConfig {
  const config = (model as { [MODEL]?: ModelConfig })[MODEL]
  if (!config) throw new TypeError(`${(model as { name?: string }).name || 'This class'} is not a model: declare it with \`extends Model('table')\``)
  return config
}

/**
 * Makes the model's hidden columns non-enumerable on each row, in place: still there for the code that needs
 * them (`user.password_hash`), left out by `JSON.stringify`, spreads, `Object.keys` and loggers.
 */
export function hideColumns<R extends object>(config: ModelConfig, rows: R[]): R[] {
  if (config.hidden.length === 0) return rows
  for (const row of rows) {
    for (const column of config.hidden) {
      if (Object.hasOwn(row, column)) {
        Object.defineProperty(row, column, { enumerable: false, value: (row as Record<string, unknown>)[column], writable: true, configurable: true })
      }
    }
  }
  return rows
}

/**
 * The time the model writes into `created_at`, `updated_at` and `deleted_at`: now, in UTC, to the millisecond, in
 * the form SQLite's date functions sort with (`2025-01-31 09:05:00.123`). Taken by the application rather than the
 * database's `CURRENT_TIMESTAMP`, whose precision differs (seconds on SQLite, microseconds on PostgreSQL), so that
 * both databases hold the same value and a row's `created_at` and `updated_at` are equal when it is created.
 */
export function freshTimestamp(): string {
  return new Date().toISOString().replace('T', ' ').replace('Z', '')
}
