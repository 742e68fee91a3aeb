import { sql, type Kysely } from 'kysely'
import type { AuthorizationResult } from '../authorization/AuthorizationResult.js'
import { Gate, type GateRegistry } from '../authorization/Gate.js'
import { currentTimestamp } from '../database/columns.js'
import { modelKey, type KeyType } from '../database/modelKey.js'
import { HttpError } from '../http/HttpError.js'
import { BOOKKEEPING_TABLES } from './bookkeepingTables.js'
import { introspect, type Column, type Table } from './introspect.js'
import { queueOverview, retryFailedJob, retryJobOutcome, type QueueOverview, type RetryOutcome } from './queueOverview.js'
import { readForm, type ReadForm } from './readForm.js'
import { systemInfo, type SystemFact } from './systemInfo.js'

/** One row as the database returned it, secret columns left out. */
export type Row = Record<string, unknown>

/** Which tables a dashboard shows, and how. */
export interface DashboardOptions {
  /** The database, asked for on each use: pass fw-runtime's `db`. */
  db: () => Kysely<any>
  /** Tables listed but never written. Default: `BOOKKEEPING_TABLES` (tokens, sessions, the login throttle). */
  readOnly?: readonly string[]
  /** Tables never listed (the migrator's own never are). */
  hidden?: readonly string[]
  /** Columns never shown, searched, sorted by or edited, besides the names `isSecretColumn` recognises. */
  secret?: readonly string[]
  /** Rows on one page of a list (default 25). */
  perPage?: number
  /** Where the tables' model policies are registered (default: the application's `Gate`). */
  gate?: GateRegistry
}

/** What the dashboard asks a table's model policy, action by action: list, open, create, change, delete a row. */
export type DashboardAbility = 'viewAny' | 'view' | 'create' | 'update' | 'delete'

/** A list page's query, as the URL gives it (`?q=&sort=&dir=&page=`); anything unknown is ignored. */
export interface ListQuery {
  search?: string | null
  sort?: string | null
  direction?: string | null
  page?: string | number | null
}

/** One page of a table's rows, with what the list page needs to link to the others. */
export interface RowList {
  rows: Row[]
  total: number
  page: number
  lastPage: number
  search: string
  /** The column sorted by, when the query named one of the table's shown columns. */
  sort: string | undefined
  direction: 'asc' | 'desc'
}

/** One row found by the key in a URL. */
export interface FoundRow {
  row: Row
  /** The key as the database compares it (a number for integer keys). */
  key: unknown
}

/** What a create or an update did: the row's key, or the form again with what to fix. */
export type Saved = { ok: true; key: unknown } | { ok: false; form: ReadForm; problem?: string }

/**
 * The database seen by an admin dashboard: every table found by introspection, listed, searched, sorted,
 * paged, and its rows opened, created, changed and deleted. Table and column names reach SQL only from
 * introspection, values only as bound parameters. Secret columns (password and token hashes) are never
 * read, searched, sorted by or written; read-only tables and views refuse every write with a 403.
 *
 * @example
 * ```ts
 * import { db } from 'fw-runtime'
 * import { Dashboard } from 'fw-runtime/dash'
 *
 * const dashboard = new Dashboard({ db })
 * const users = await dashboard.table('users')
 * if (users) console.log(await dashboard.list(users, { search: 'ada', sort: 'email' }))
 * ```
 */
export class Dashboard {
  private readonly db: () => Kysely<any>
  private readonly readOnly: ReadonlySet<string>
  private readonly hidden: ReadonlySet<string>
  private readonly secret: ReadonlySet<string>
  private readonly perPage: number
  private readonly gate: GateRegistry

  constructor(options: DashboardOptions) {
    this.db = options.db
    this.readOnly = new Set(options.readOnly ?? BOOKKEEPING_TABLES)
    this.hidden = new Set(options.hidden ?? [])
    this.secret = new Set(options.secret ?? [])
    this.perPage = options.perPage ?? 25
    this.gate = options.gate ?? Gate
  }

  /**
   * What the policy of the table's model (`Gate.policy(Post, PostPolicy)`, found by the model's `table`) says of the
   * user's action: `viewAny` to list the table, `view` to open a row, `create`, `update` and `delete`, the row given
   * as the dashboard read it (secret columns left out). Allowed when the table's model has no policy: the dashboard's
   * own policy has admitted the user already. `Gate.before` hooks apply, as everywhere.
   *
   * @example
   * ```ts
   * const decision = await dashboard.inspect(request.user, 'update', table, found.row)
   * if (!decision.allowed) return refuse(request, table, decision.message)
   * ```
   */
  async inspect(user: unknown, ability: DashboardAbility, table: Table, row?: Row): Promise<AuthorizationResult> {
    const model = this.gate.modelForTable(table.name)
    if (model === undefined) return { allowed: true, message: undefined, status: 200 }
    return this.gate.inspect(user, ability, model, ...(row === undefined ? [] : [row]))
  }

  /** Whether the table's model policy lets the user do that: see `inspect`. */
  async allows(user: unknown, ability: DashboardAbility, table: Table, row?: Row): Promise<boolean> {
    return (await this.inspect(user, ability, table, row)).allowed
  }

  /** Every table and view shown, sorted by name, read again on each call so that a new migration shows at once. */
  tables(): Promise<Table[]> {
    return introspect(this.db(), { readOnly: this.readOnly, hidden: this.hidden, secret: this.secret })
  }

  /** The table with that name, or undefined: a name from a URL reaches SQL only when the database reported it. */
  async table(name: string): Promise<Table | undefined> {
    return (await this.tables()).find((table) => table.name === name)
  }

  /** The application, fw-runtime and Node.js versions, the database, the environment and the uptime: see `systemInfo`. */
  system(): SystemFact[] {
    return systemInfo(this.db())
  }

  /** The job queue: its driver, how many jobs wait, run and have failed, the latest failed; undefined under `sync`. */
  queue(): Promise<QueueOverview | undefined> {
    return queueOverview()
  }

  /** Puts the failed job with that id (from a URL) back on its queue; false when it was not queued (`retryJobOutcome` says why). */
  retryJob(id: string): Promise<boolean> {
    return retryFailedJob(id)
  }

  /** Puts the failed job with that id (from a URL) back on its queue: `queued`, `not-failed` or `twin-waits` (see `RetryOutcome`). */
  retryJobOutcome(id: string): Promise<RetryOutcome> {
    return retryJobOutcome(id)
  }

  /** How many rows the table has. */
  async count(table: Table): Promise<number> {
    const { count } = await this.db().selectFrom(table.name).select((eb) => eb.fn.countAll().as('count')).executeTakeFirstOrThrow()
    return Number(count)
  }

  /** One page of rows: `search` in every shown column, ignoring case; sorted by a shown column, then by the key. */
  async list(table: Table, query: ListQuery = {}): Promise<RowList> {
    const search = (query.search ?? '').trim()
    // An unknown ?sort= (or a secret column's name) is ignored, never passed on.
    const sort = table.columns.find((column) => column.name === query.sort)
    const direction = query.direction === 'desc' ? 'desc' : 'asc'

    let rows = this.db().selectFrom(table.name)
    if (search !== '') {
      const columns = table.columns.filter((column) => column.kind !== 'binary')
      rows = rows.where((eb) => (columns.length === 0 ? sql<boolean>`1 = 0` : eb.or(columns.map((column) => contains(column, search)))))
    }
    const { total } = await rows.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow()
    const count = Number(total)
    const lastPage = Math.max(1, Math.ceil(count / this.perPage))
    const page = Math.min(lastPage, Math.max(1, Number.parseInt(String(query.page ?? '1'), 10) || 1))

    // A table whose every column is secret has nothing to show but its number of rows.
    if (table.columns.length === 0) return { rows: [], total: count, page, lastPage, search, sort: undefined, direction }
    let ordered = rows.select(shown(table))
    if (sort) ordered = ordered.orderBy(sql.id(sort.name), direction)
    // The key last, so that rows with equal sort values keep one order from page to page.
    if (table.key && table.key !== sort) ordered = ordered.orderBy(sql.id(table.key.name), sort ? 'asc' : direction)
    const found = (await ordered.limit(this.perPage).offset((page - 1) * this.perPage).execute()) as Row[]
    return { rows: found, total: count, page, lastPage, search, sort: sort?.name, direction }
  }

  /** The row whose key is `id` (from a URL), its shown columns only; undefined when there is none. */
  async row(table: Table, id: string): Promise<FoundRow | undefined> {
    if (!table.key) return undefined
    // A key that cannot be a value of its column matches nothing; PostgreSQL would fail on it.
    const key = modelKey(keyType(table.key), id)
    if (key === undefined) return undefined
    const row = (await this.db().selectFrom(table.name).select(shown(table)).where(sql.id(table.key.name), '=', key).executeTakeFirst()) as Row | undefined
    return row ? { row, key } : undefined
  }

  /** Inserts the submitted form's row; a 403 HttpError for a read-only table or one whose rows need a secret column. */
  async create(table: Table, body: unknown): Promise<Saved> {
    if (table.readOnly) throw readOnly(table)
    if (table.requiredSecret.length > 0) {
      throw new HttpError(403, `Rows of ${table.name} cannot be created here: they need ${table.requiredSecret.join(', ')}, which a dashboard never sets`)
    }
    const form = readForm(table, body, true)
    if (Object.keys(form.errors).length > 0) return { ok: false, form }
    const insert = this.db().insertInto(table.name)
    const query = Object.keys(form.values).length === 0 ? insert.defaultValues() : insert.values(form.values)
    try {
      if (!table.key) {
        await query.execute()
        return { ok: true, key: undefined }
      }
      const created = (await query.returning(sql.id(table.key.name).as('key') as never).executeTakeFirst()) as { key?: unknown } | undefined
      return { ok: true, key: created?.key ?? undefined }
    } catch (error) {
      return { ok: false, form, problem: refusal(error) }
    }
  }

  /** Changes the row's editable columns to the submitted form's values; `updated_at` is set when the database fills it. */
  async update(table: Table, key: unknown, body: unknown): Promise<Saved> {
    if (table.readOnly || !table.key) throw readOnly(table)
    const form = readForm(table, body, false)
    if (Object.keys(form.errors).length > 0) return { ok: false, form }
    const changes: Row = { ...form.values }
    if (table.managed.has('updated_at')) changes.updated_at = currentTimestamp(this.db())
    if (Object.keys(changes).length === 0) return { ok: true, key }
    try {
      await this.db().updateTable(table.name).set(changes).where(sql.id(table.key.name), '=', key).execute()
    } catch (error) {
      return { ok: false, form, problem: refusal(error) }
    }
    return { ok: true, key }
  }

  /** Deletes the row; the database's reason when it refuses (a foreign key), else undefined. */
  async delete(table: Table, key: unknown): Promise<{ problem?: string }> {
    if (table.readOnly || !table.key) throw readOnly(table)
    try {
      await this.db().deleteFrom(table.name).where(sql.id(table.key.name), '=', key).execute()
    } catch (error) {
      return { problem: refusal(error) }
    }
    return {}
  }
}

/**
 * How a key column compares, from the type the database reports: PostgreSQL's `int2`/`int4` hold 32 bits (an `int2`
 * key past 32767 still fails there: such keys are rare), `int8` and SQLite's integers 64.
 */
function keyType(column: Column): KeyType {
  const type = column.type.toLowerCase()
  if (type === 'uuid') return 'uuid'
  if (column.kind !== 'integer') return 'string'
  return /^(int2|int4|smallint|serial)$/.test(type) ? 'integer' : 'bigint'
}

/** The select list of a table's shown columns: a secret column's value never leaves the database. */
function shown(table: Table) {
  return table.columns.map((column) => sql.id(column.name).as(column.name) as never)
}

/** `column` contains `search`, ignoring case, on SQLite and PostgreSQL alike; `%` and `_` are matched as themselves. */
function contains(column: Column, search: string) {
  const pattern = `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`
  return sql<boolean>`lower(cast(${sql.id(column.name)} as text)) like ${pattern} escape '\\'`
}

function readOnly(table: Table): HttpError {
  return new HttpError(403, `${table.name} is read-only in this dashboard`)
}

/**
 * Why the database refused a row, for the form: a constraint or a value it rejects (SQLite's
 * SQLITE_CONSTRAINT…, PostgreSQL's classes 22 and 23). Anything else is thrown on, so that the
 * router answers it as a 500 that shows no detail in production.
 */
function refusal(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code
  if (error instanceof Error && typeof code === 'string' && /^(SQLITE_(CONSTRAINT|MISMATCH|TOOBIG|RANGE)|2[23][0-9A-Z]{3}$)/.test(code)) return error.message
  throw error
}
