import { sql, type Kysely } from 'kysely'
import { db } from './db.js'
import { freshTimestamp, hideColumns, MODEL, modelConfig, NEW_QUERY, type ModelConfig } from './ModelConfig.js'
import { modelKey, type KeyType } from './modelKey.js'
import { newModelQuery, type ModelQuery, type Page, type SameModelQuery } from './ModelQuery.js'
import type { ColumnOf, InsertFor, LooseModel, LooseRow, MODEL_TYPES, ModelTypes, RowFor, UpdateFor } from './modelTypes.js'
import { BelongsTo, type BelongsToOptions } from './relations/BelongsTo.js'
import { BelongsToMany, type BelongsToManyOptions } from './relations/BelongsToMany.js'
import { HasMany } from './relations/HasMany.js'
import { HasOne } from './relations/HasOne.js'
import type { HasOptions } from './relations/HasOneOrMany.js'
import type { ANY_RELATION } from './relations/relationTypes.js'
import { Scope } from './Scope.js'
import type { Tables } from './Tables.js'
import { updateMany } from './updateMany.js'

export type { Page } from './ModelQuery.js'

export type ComparisonOperator = '=' | '!=' | '<>' | '<' | '<=' | '>' | '>=' | 'like' | 'not like' | 'in' | 'not in' | 'is' | 'is not'

/** How `Model(table, options)` treats its table. */
export interface ModelOptions<Row = LooseRow> {
  /** Set `created_at` and `updated_at` on create, `updated_at` on update (default true: the create-table stub adds them). */
  timestamps?: boolean
  /** The primary key column (default `id`). */
  primaryKey?: keyof Row & string
  /**
   * What the key column holds (default `integer`, the column of `id(db)`): a key it cannot hold (`abc`) finds
   * nothing, without asking the database. `bigint`, `uuid`, or `string` for any text.
   */
  keyType?: KeyType
  /** `delete()` sets `deleted_at` instead of deleting, and queries leave such rows out (`withTrashed()` to see them). */
  softDeletes?: boolean
  /** Columns never serialised (a password hash): on the rows, readable, but left out of their JSON, spreads and logs. */
  hidden?: readonly (keyof Row & string)[]
  /** The columns `create`, `update` and `updateOrCreate` write; they drop any other key (`forceCreate`/`forceUpdate` write all). */
  fillable?: readonly (keyof Row & string)[]
  /** The database to use; defaults to the `db` service of the container, looked up on each query. */
  db?: () => Kysely<any>
}

/** The values `create` or `update` takes: only the fillable columns, when the model lists them. */
type Fillable<Values, O> = O extends { readonly fillable: readonly (infer F)[] } ? Pick<Values, F & keyof Values> : Values

/** The model as the query of one of its scopes sees it: its relations are not known there, so any name is taken. */
type ScopeModel<T extends string, DB, O> = ModelClass<T, DB, O> & { readonly [ANY_RELATION]: true }

/**
 * The static side of a model class made by `Model(table)`: its rows are plain objects typed by the table's entry in
 * `Tables` (loosely, any column, until the table is there), or in another table map given as `DB`.
 */
export interface ModelClass<T extends string = string, DB = Tables, O = {}> {
  new (): object
  /** The types of the model, for its queries and relations (nothing at run time). */
  readonly [MODEL_TYPES]: ModelTypes<T, DB, O>
  /** The table this model reads and writes. */
  readonly table: T
  /** Its primary key column. */
  readonly primaryKey: string
  /** A query over the table, to refine (`where`, `orderBy`, scopes), load relations with (`with`) and run. */
  query<M>(this: M): ModelQuery<M>
  /** The row with that key, or undefined (also for a key the column cannot hold, such as `abc` for an integer key). */
  find(id: number | string): Promise<RowFor<DB, T> | undefined>
  /** The row with that key; when there is none, an HttpError 404, so that a route answers `{"error":"Not Found"}`. */
  findOrFail(id: number | string): Promise<RowFor<DB, T>>
  /** Every row, by primary key. */
  all(): Promise<RowFor<DB, T>[]>
  /** The rows whose column compares to the value, by primary key: `where('title', '=', 'Hello')`. */
  where<C extends keyof RowFor<DB, T> & string>(
    column: C,
    operator: ComparisonOperator,
    value: RowFor<DB, T>[C] | readonly RowFor<DB, T>[C][] | null,
  ): Promise<RowFor<DB, T>[]>
  /** The first row (by primary key) whose column equals the value (`is null` for null): `firstWhere('email', email)`. */
  firstWhere<C extends keyof RowFor<DB, T> & string>(column: C, value: RowFor<DB, T>[C] | null): Promise<RowFor<DB, T> | undefined>
  /** The first row (by primary key) whose column compares to the value: `firstWhere('stars', '>', 3)`. */
  firstWhere<C extends keyof RowFor<DB, T> & string>(
    column: C,
    operator: ComparisonOperator,
    value: RowFor<DB, T>[C] | readonly RowFor<DB, T>[C][] | null,
  ): Promise<RowFor<DB, T> | undefined>
  /** How many rows there are. */
  count(): Promise<number>
  /** Whether there is any row. */
  exists(): Promise<boolean>
  /** Inserts a row of the fillable values (other keys are dropped) and returns it as stored, with its key and defaults. */
  create(values: Fillable<InsertFor<DB, T>, O>): Promise<RowFor<DB, T>>
  /** Inserts a row of every value given, fillable or not. */
  forceCreate(values: InsertFor<DB, T>): Promise<RowFor<DB, T>>
  /** Changes the fillable values of the row with that key (and its `updated_at`); returns it, or undefined when there is none. */
  update(id: number | string, values: Fillable<UpdateFor<DB, T>, O>): Promise<RowFor<DB, T> | undefined>
  /** Changes every value given of the row with that key, fillable or not. */
  forceUpdate(id: number | string, values: UpdateFor<DB, T>): Promise<RowFor<DB, T> | undefined>
  /**
   * Changes many rows, each to its own fillable values, in one statement (and their `updated_at`): each object
   * carries its row's primary key, and all carry the same columns. Trashed rows are left as they are. Resolves to
   * the number of rows changed: `updateMany([{ id: 1, stars: 5 }, { id: 2, stars: 3 }])`.
   */
  updateMany(rows: readonly (Fillable<UpdateFor<DB, T>, O> & Partial<RowFor<DB, T>>)[]): Promise<number>
  /**
   * The first row whose columns equal `attributes`, updated with the fillable `values`; or, when there is none, a new
   * row of both: `updateOrCreate({ email }, { name })`.
   */
  updateOrCreate(attributes: Partial<RowFor<DB, T>>, values?: Fillable<UpdateFor<DB, T>, O>): Promise<RowFor<DB, T>>
  /** Deletes the row with that key (with soft deletes: sets its `deleted_at`); true when there was one. */
  delete(id: number | string): Promise<boolean>
  /** Deletes the row with that key for good, soft deletes or not; true when there was one. */
  forceDelete(id: number | string): Promise<boolean>
  /** Clears the `deleted_at` of the soft-deleted row with that key; true when there was one. */
  restore(id: number | string): Promise<boolean>
  /** One page of rows by primary key, with `meta` as in the seed's pagination pattern (pages count from 1). */
  paginate(page?: number, perPage?: number): Promise<Page<RowFor<DB, T>>>
  /**
   * Declares that each row has many rows of another model, which hold its key: `static comments = this.hasMany(() => Comment)`
   * (`comments.post_id`; `{ foreignKey, localKey }` to name others).
   */
  hasMany<R>(related: () => R, options?: HasOptions<ColumnOf<R>, keyof RowFor<DB, T> & string>): HasMany<R>
  /** Declares that each row has one row of another model, which holds its key: `static profile = this.hasOne(() => Profile)`. */
  hasOne<R>(related: () => R, options?: HasOptions<ColumnOf<R>, keyof RowFor<DB, T> & string>): HasOne<R>
  /**
   * Declares that each row holds the key of a row of another model: `static author = this.belongsTo(() => User)`
   * (`posts.author_id`: the relation's name + `_id`; `{ foreignKey, ownerKey }` to name others).
   */
  belongsTo<R>(related: () => R, options?: BelongsToOptions<keyof RowFor<DB, T> & string, ColumnOf<R>>): BelongsTo<R>
  /**
   * Declares that rows of the two models are linked by the rows of a pivot table: `static tags = this.belongsToMany(() => Tag)`
   * (`post_tag` with `post_id` and `tag_id`; `{ pivotTable, foreignPivotKey, relatedPivotKey }` to name others).
   */
  belongsToMany<R>(related: () => R, options?: BelongsToManyOptions<keyof RowFor<DB, T> & string, ColumnOf<R>>): BelongsToMany<R>
  /**
   * Declares a reusable constraint, called as a method of the model's queries:
   * `static published = this.scope((query) => query.where('published', '=', true))`, then `Post.query().published()`.
   */
  scope<A extends unknown[]>(
    constrain: (query: ModelQuery<ScopeModel<T, DB, O>>, ...args: A) => SameModelQuery<ScopeModel<T, DB, O>>,
  ): Scope<A>
}

/**
 * The base of an application model: a class whose static methods query one table through kysely, typed by the
 * table's entry in `Tables` (or in another table map given as `DB`). Rows are plain objects that serialise to JSON
 * as they are. Relations and scopes are static properties of the class.
 *
 * @example
 * ```ts
 * export class Post extends Model('posts', { fillable: ['title', 'body'], softDeletes: true }) {
 *   static author = this.belongsTo(() => User)
 *   static comments = this.hasMany(() => Comment)
 *   static published = this.scope((query) => query.where('published', '=', true))
 * }
 *
 * const post = await Post.findOrFail(request.param('post'))           // 404 when there is none
 * const posts = await Post.query().published().with('author', 'comments.author').execute()
 * ```
 */
export function Model<const T extends string, DB = Tables, const O extends ModelOptions<RowFor<DB, T>> = {}>(
  table: T,
  options?: O,
): ModelClass<T, DB, O> {
  const settings = (options ?? {}) as ModelOptions
  const config: ModelConfig = {
    table,
    primaryKey: settings.primaryKey ?? 'id',
    keyType: settings.keyType ?? 'integer',
    timestamps: settings.timestamps ?? true,
    softDeletes: settings.softDeletes ?? false,
    hidden: settings.hidden ?? [],
    fillable: settings.fillable ? new Set(settings.fillable) : undefined,
    database: settings.db ?? (db as () => Kysely<any>),
  }
  return class extends BaseModel {
    static readonly [MODEL] = config
    static readonly table = table
    static readonly primaryKey = config.primaryKey
  } as unknown as ModelClass<T, DB, O>
}

type Row = Record<string, any>

/** The static methods every model class inherits; `this` is the application's model class. */
abstract class BaseModel {
  static [NEW_QUERY](database: Kysely<any>, alias?: string) {
    return newModelQuery(this, database, alias)
  }

  static query(): ModelQuery<LooseModel> {
    return newModelQuery(this, modelConfig(this).database()) as ModelQuery<LooseModel>
  }

  static find(id: number | string): Promise<Row | undefined> {
    return this.query().find(id)
  }

  static findOrFail(id: number | string): Promise<Row> {
    return this.query().findOrFail(id)
  }

  static all(): Promise<Row[]> {
    return this.query().orderBy(modelConfig(this).primaryKey).execute()
  }

  static where(column: string, operator: ComparisonOperator, value: unknown): Promise<Row[]> {
    return this.query().where(column, operator, value).orderBy(modelConfig(this).primaryKey).execute()
  }

  static firstWhere(column: string, ...rest: unknown[]): Promise<Row | undefined> {
    const [operator, value] = rest.length === 1 ? [rest[0] === null ? 'is' : '=', rest[0]] : rest
    return this.query()
      .where(column, operator as ComparisonOperator, value)
      .orderBy(modelConfig(this).primaryKey)
      .first()
  }

  static count(): Promise<number> {
    return this.query().count()
  }

  static exists(): Promise<boolean> {
    return this.query().exists()
  }

  static create(values: Row): Promise<Row> {
    return insert(modelConfig(this), fillable(modelConfig(this), values))
  }

  static forceCreate(values: Row): Promise<Row> {
    return insert(modelConfig(this), values)
  }

  static update(id: number | string, values: Row): Promise<Row | undefined> {
    return change(this, id, fillable(modelConfig(this), values))
  }

  static forceUpdate(id: number | string, values: Row): Promise<Row | undefined> {
    return change(this, id, values)
  }

  static updateMany(rows: readonly Row[]): Promise<number> {
    const config = modelConfig(this)
    const { primaryKey, table } = config
    const now = config.timestamps ? freshTimestamp() : undefined
    const changes = rows.map((row) => ({ ...(now === undefined ? {} : { updated_at: now }), ...fillable(config, row), [primaryKey]: row[primaryKey] }))
    const where = config.softDeletes ? sql`${sql.ref(`${table}.deleted_at`)} is null` : undefined
    return updateMany(config.database(), table as never, changes, { key: primaryKey as never, where })
  }

  static async updateOrCreate(attributes: Row, values: Row = {}): Promise<Row> {
    const config = modelConfig(this)
    let query = this.query()
    for (const [column, value] of Object.entries(attributes)) query = query.where(`${config.table}.${column}`, value === null ? 'is' : '=', value)
    const existing = await query.orderBy(config.primaryKey).first()
    const changes = fillable(config, values)
    if (existing === undefined) return insert(config, { ...attributes, ...changes })
    if (Object.keys(changes).length === 0) return existing
    return (await change(this, existing[config.primaryKey], changes)) ?? existing
  }

  static async delete(id: number | string): Promise<boolean> {
    const config = modelConfig(this)
    if (!config.softDeletes) return this.forceDelete(id)
    const now = freshTimestamp()
    return setTrashed(config, id, config.timestamps ? { deleted_at: now, updated_at: now } : { deleted_at: now }, 'is')
  }

  static async forceDelete(id: number | string): Promise<boolean> {
    const { keyType, table, primaryKey, database } = modelConfig(this)
    const key = modelKey(keyType, id)
    if (key === undefined) return false
    const result = await database().deleteFrom(table).where(primaryKey, '=', key).executeTakeFirst()
    return result.numDeletedRows > 0n
  }

  static async restore(id: number | string): Promise<boolean> {
    const config = modelConfig(this)
    if (!config.softDeletes) throw new TypeError(`${this.name} has no soft deletes to restore: declare it with Model('${config.table}', { softDeletes: true })`)
    return setTrashed(config, id, config.timestamps ? { deleted_at: null, updated_at: freshTimestamp() } : { deleted_at: null }, 'is not')
  }

  static paginate(page?: number, perPage?: number): Promise<Page<Row>> {
    return this.query().paginate(page, perPage)
  }

  static hasMany(related: () => unknown, options?: HasOptions) {
    return new HasMany(this, related, options)
  }

  static hasOne(related: () => unknown, options?: HasOptions) {
    return new HasOne(this, related, options)
  }

  static belongsTo(related: () => unknown, options?: BelongsToOptions) {
    return new BelongsTo(this, related, options)
  }

  static belongsToMany(related: () => unknown, options?: BelongsToManyOptions) {
    return new BelongsToMany(this, related, options)
  }

  static scope(constrain: (query: any, ...args: any[]) => unknown) {
    return new Scope(constrain)
  }
}

/** The values of the model's fillable columns (all of them when it lists none): other keys are dropped, silently. */
function fillable(config: ModelConfig, values: Row): Row {
  const columns = config.fillable
  if (columns === undefined) return values
  return Object.fromEntries(Object.entries(values).filter(([column]) => columns.has(column)))
}

async function insert(config: ModelConfig, values: Row): Promise<Row> {
  const now = freshTimestamp()
  const row = config.timestamps ? { created_at: now, updated_at: now, ...values } : values
  const query = config.database().insertInto(config.table)
  // `insert … default values`: a row of nothing but defaults has no column list.
  const inserted = await (Object.keys(row).length === 0 ? query.defaultValues() : query.values(row)).returningAll().executeTakeFirstOrThrow()
  return hideColumns(config, [inserted as Row])[0]!
}

async function change(model: typeof BaseModel, id: number | string, values: Row): Promise<Row | undefined> {
  const config = modelConfig(model)
  const key = modelKey(config.keyType, id)
  if (key === undefined) return undefined
  const changes = config.timestamps ? { updated_at: freshTimestamp(), ...values } : values
  if (Object.keys(changes).length === 0) return model.find(key)
  let query = config.database().updateTable(config.table).set(changes).where(config.primaryKey, '=', key)
  if (config.softDeletes) query = query.where('deleted_at', 'is', null)
  const row = (await query.returningAll().executeTakeFirst()) as Row | undefined
  return row && hideColumns(config, [row])[0]
}

/** Sets (or clears) `deleted_at` of the row with that key, when it is live (or trashed); true when there was one. */
async function setTrashed(config: ModelConfig, id: number | string, changes: Row, deletedAt: 'is' | 'is not'): Promise<boolean> {
  const key = modelKey(config.keyType, id)
  if (key === undefined) return false
  const result = await config
    .database()
    .updateTable(config.table)
    .set(changes)
    .where(config.primaryKey, '=', key)
    .where('deleted_at', deletedAt, null)
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}
