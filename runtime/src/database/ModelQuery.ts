import {
  sql,
  type ComparisonOperatorExpression,
  type ExpressionOrFactory,
  type Kysely,
  type OperandValueExpressionOrList,
  type OrderByExpression,
  type OrderByModifiers,
  type ReferenceExpression,
  type SelectQueryBuilder,
  type SqlBool,
} from 'kysely'
import { HttpError } from '../http/HttpError.js'
import { hideColumns, modelConfig, NEW_QUERY, type ModelConfig } from './ModelConfig.js'
import { modelKey } from './modelKey.js'
import type { ColumnOf, DBOf, RowOf, TableOf } from './modelTypes.js'
import { Relation, type AnySelect } from './relations/Relation.js'
import type { LoadedRow, ModelAt, RelatedOf, RelationName, RelationPath } from './relations/relationTypes.js'
import { Scope } from './Scope.js'

/** One page of rows with the seed's pagination metadata. */
export interface Page<Row> {
  data: Row[]
  meta: { current_page: number; per_page: number; total: number; last_page: number }
}

/** The query of a model: its builder, and a method for each of the model's scopes (`Post.query().published()`). */
export type ModelQuery<M, P extends string = never> = ModelQueryBuilder<M, P> & ScopeMethods<M, P>

/** The scopes of a model, as methods of its query. */
export type ScopeMethods<M, P extends string> = {
  [K in ScopeName<M>]: M[K] extends Scope<infer A> ? (...args: A) => ModelQuery<M, P> : never
}

type ScopeName<M> = { [K in keyof M]: M[K] extends Scope<any> ? K : never }[keyof M] & string

/** Where a query keeps its model's type (never a value at run time). */
declare const QUERY_MODEL: unique symbol

/** What a scope, a `with()` or a `whereHas()` callback returns: a query of the model it was given, whatever it loads. */
export type SameModelQuery<M> = { readonly [QUERY_MODEL]: M }

/** Which rows of a model with soft deletes a query reads. */
type Trashed = 'without' | 'with' | 'only'

interface Eager {
  readonly path: string
  readonly constrain?: ((query: any) => any) | undefined
}

interface State {
  readonly model: any
  readonly config: ModelConfig
  readonly database: Kysely<any>
  /** The table, or its alias when the query is a subquery of its own table (`whereHas` of a self relation). */
  readonly ref: string
  /** Everything but the soft-delete filter, which `toKysely()` adds last. */
  readonly builder: AnySelect
  readonly trashed: Trashed
  readonly eager: readonly Eager[]
}

/**
 * A query of a model's table, made by `Post.query()`: filters and order as kysely's, plus eager loading of
 * relations, `whereHas`, soft deletes and the model's scopes. Rows come back as plain objects, with the
 * model's hidden columns left out of their JSON and the loaded relations on them. Immutable, as kysely's
 * builders: each method returns a new query.
 *
 * @example
 * ```ts
 * const posts = await Post.query()
 *   .published()                                   // a scope of Post
 *   .whereHas('comments', (comments) => comments.where('approved', '=', true))
 *   .with('author', 'comments.author')             // one query per relation, whatever the number of posts
 *   .orderBy('created_at', 'desc')
 *   .execute()
 * posts[0].comments[0].author?.name
 * ```
 */
export class ModelQueryBuilder<M, P extends string = never> {
  declare readonly [QUERY_MODEL]: M
  readonly #state: State

  /** @internal Made by the model's `query()`. */
  constructor(state: State) {
    this.#state = state
  }

  /** Only the rows that match, as kysely's `where`: `where('stars', '>', 3)`, `where('id', 'in', [1, 2])`, `where((eb) => eb.or([...]))`. */
  where<RE extends ReferenceExpression<DBOf<M>, TableOf<M>>, VE extends OperandValueExpressionOrList<DBOf<M>, TableOf<M>, RE>>(
    lhs: RE,
    op: ComparisonOperatorExpression,
    rhs: VE,
  ): this
  where<E extends ExpressionOrFactory<DBOf<M>, TableOf<M>, SqlBool>>(expression: E): this
  where(...args: unknown[]): this {
    return this.#next({ builder: (this.#state.builder.where as (...args: unknown[]) => AnySelect)(...args) })
  }

  /** Sorts by a column or expression, as kysely's `orderBy`: `orderBy('created_at', 'desc')`. */
  orderBy<OE extends OrderByExpression<DBOf<M>, TableOf<M>, RowOf<M>>>(expression: OE, modifiers?: OrderByModifiers): this {
    return this.#next({ builder: this.#state.builder.orderBy(expression as never, modifiers) })
  }

  /** Newest first: `orderBy(column, 'desc')`, by `created_at` unless told. */
  latest(column: ColumnOf<M> = 'created_at' as ColumnOf<M>): this {
    return this.#next({ builder: this.#state.builder.orderBy(`${this.#state.ref}.${column}`, 'desc') })
  }

  /** Oldest first: `orderBy(column, 'asc')`, by `created_at` unless told. */
  oldest(column: ColumnOf<M> = 'created_at' as ColumnOf<M>): this {
    return this.#next({ builder: this.#state.builder.orderBy(`${this.#state.ref}.${column}`, 'asc') })
  }

  /** At most this many rows. */
  limit(count: number): this {
    return this.#next({ builder: this.#state.builder.limit(count) })
  }

  /** Skips this many rows. */
  offset(count: number): this {
    return this.#next({ builder: this.#state.builder.offset(count) })
  }

  /**
   * Loads relations with the rows, each with one query whatever the number of rows: `with('author', 'comments')`,
   * nested with a dot (`'comments.author'`), or one relation with its own constraints
   * (`with('comments', (comments) => comments.where('approved', '=', true).latest())`). Each row gets the
   * relation under its name: an array for `hasMany` and `belongsToMany`, a row or null for `hasOne` and `belongsTo`.
   */
  with<Q extends RelationPath<M>>(path: Q, constrain: (query: ModelQuery<ModelAt<M, Q>>) => SameModelQuery<ModelAt<M, Q>>): ModelQuery<M, P | Q>
  with<Q extends RelationPath<M>>(...paths: Q[]): ModelQuery<M, P | Q>
  with(...args: unknown[]): ModelQuery<M, any> {
    const constrain = typeof args[1] === 'function' ? (args[1] as Eager['constrain']) : undefined
    const paths = (constrain ? [args[0]] : args) as string[]
    for (const path of paths) relationOf(this.#state.model, path.split('.')[0]!)
    const eager = paths.map((path) => ({ path, constrain }))
    return this.#next({ eager: [...this.#state.eager, ...eager] }) as never
  }

  /**
   * Only the rows that have a related row (that meets the constraints, when given): an EXISTS subquery,
   * `whereHas('comments', (comments) => comments.where('approved', '=', true))`.
   */
  whereHas<K extends RelationName<M>>(relation: K, constrain?: (query: ModelQuery<RelatedOf<M, K>>) => SameModelQuery<RelatedOf<M, K>>): this {
    return this.#whereExists(relation, constrain, true)
  }

  /** Only the rows that have no related row (that meets the constraints, when given). */
  whereDoesntHave<K extends RelationName<M>>(relation: K, constrain?: (query: ModelQuery<RelatedOf<M, K>>) => SameModelQuery<RelatedOf<M, K>>): this {
    return this.#whereExists(relation, constrain, false)
  }

  /** Soft-deleted rows too (a model with `softDeletes: true`). */
  withTrashed(): this {
    return this.#trashed('with')
  }

  /** Only soft-deleted rows (a model with `softDeletes: true`). */
  onlyTrashed(): this {
    return this.#trashed('only')
  }

  /**
   * Changes the kysely query underneath, for what the model's query does not say itself (a join, a subquery). The
   * rows keep the model's columns: `modify((query) => query.innerJoin('users', 'users.id', 'posts.author_id').where('users.name', '=', 'Ada'))`.
   */
  modify(build: (query: SelectQueryBuilder<DBOf<M>, TableOf<M>, RowOf<M>>) => SelectQueryBuilder<any, any, any>): this {
    return this.#next({ builder: build(this.#state.builder as never) })
  }

  /** The kysely query this stands for, soft-delete filter included (eager loads and hidden columns are applied by `execute()`). */
  toKysely(): SelectQueryBuilder<DBOf<M>, TableOf<M>, RowOf<M>> {
    const { builder, trashed, config, ref } = this.#state
    if (!config.softDeletes || trashed === 'with') return builder
    return builder.where(`${ref}.deleted_at`, trashed === 'only' ? 'is not' : 'is', null)
  }

  /** The rows, with their loaded relations. */
  async execute(): Promise<LoadedRow<M, P>[]> {
    const rows = (await this.toKysely().execute()) as Record<string, any>[]
    return (await this.#load(rows)) as LoadedRow<M, P>[]
  }

  /** The first row, or undefined. */
  async first(): Promise<LoadedRow<M, P> | undefined> {
    const [row] = await this.limit(1).execute()
    return row
  }

  /** The first row, as kysely names it: `first()`. */
  executeTakeFirst(): Promise<LoadedRow<M, P> | undefined> {
    return this.first()
  }

  /**
   * The row with that key among the query's, with its loaded relations, or undefined (also for a key the column
   * cannot hold, such as `abc` for an integer key, without a query): `Post.query().with('author').find(id)`.
   */
  async find(id: number | string): Promise<LoadedRow<M, P> | undefined> {
    const { config, ref } = this.#state
    const key = modelKey(config.keyType, id)
    if (key === undefined) return undefined
    return this.#next({ builder: this.#state.builder.where(`${ref}.${config.primaryKey}`, '=', key) }).first()
  }

  /** The row with that key, as `find(id)`; when there is none, an HttpError 404 (`{"error":"Not Found"}` from a route). */
  async findOrFail(id: number | string): Promise<LoadedRow<M, P>> {
    const row = await this.find(id)
    if (row === undefined) throw new HttpError(404, 'Not Found')
    return row
  }

  /** The first row; when there is none, an HttpError 404 (`{"error":"Not Found"}` from a route). */
  async firstOrFail(): Promise<LoadedRow<M, P>> {
    const row = await this.first()
    if (row === undefined) throw new HttpError(404, 'Not Found')
    return row
  }

  /** How many rows match (limit, offset and order left aside). */
  async count(): Promise<number> {
    const row = await (this.toKysely() as AnySelect)
      .clearSelect()
      .clearOrderBy()
      .clearLimit()
      .clearOffset()
      .select((eb) => eb.fn.countAll().as('count'))
      .executeTakeFirstOrThrow()
    return Number(row.count)
  }

  /** Whether any row matches. */
  async exists(): Promise<boolean> {
    const row = await (this.toKysely() as AnySelect).clearSelect().clearOrderBy().select(sql.lit(1).as('one')).limit(1).executeTakeFirst()
    return row !== undefined
  }

  /** One page of rows (pages count from 1), in the query's order then by primary key, with `meta` as the seed's pagination. */
  async paginate(page = 1, perPage = 15): Promise<Page<LoadedRow<M, P>>> {
    const current = Math.max(1, Math.floor(page) || 1)
    const size = Math.max(1, Math.floor(perPage) || 15)
    const total = await this.count()
    const { builder, ref, config } = this.#state
    const data = await this.#next({
      builder: builder.orderBy(`${ref}.${config.primaryKey}`).limit(size).offset((current - 1) * size),
    }).execute()
    return { data, meta: { current_page: current, per_page: size, total, last_page: Math.ceil(total / size) } }
  }

  #next(changes: Partial<State>): this {
    const Query = this.constructor as new (state: State) => this
    return new Query({ ...this.#state, ...changes })
  }

  #trashed(trashed: Trashed): this {
    if (!this.#state.config.softDeletes) {
      throw new TypeError(`${this.#state.model.name} has no soft deletes: declare it with Model('${this.#state.config.table}', { softDeletes: true })`)
    }
    return this.#next({ trashed })
  }

  #whereExists(name: string, constrain: ((query: any) => SameModelQuery<any>) | undefined, exists: boolean): this {
    const { model, database, ref, builder } = this.#state
    const relation = relationOf(model, name)
    const related = relation.related()
    const table = modelConfig(related).table
    // A relation of a table to itself (a category's parent) needs the subquery's table under another name.
    const alias = table === ref ? `${table}_related` : undefined
    let query: ModelQueryBuilder<unknown, never> = related[NEW_QUERY](database, alias)
    if (constrain) query = returnedQuery(constrain(query), 'The callback of whereHas()')
    const subquery = relation.correlate(query.toKysely().clearSelect().select(sql.lit(1).as('one')), alias ?? table, ref)
    return this.#next({ builder: builder.where((eb) => (exists ? eb.exists(subquery) : eb.not(eb.exists(subquery)))) })
  }

  /** Hides the hidden columns of the rows, then loads each relation asked for, nested ones by the related query. */
  async #load(rows: Record<string, any>[]): Promise<Record<string, any>[]> {
    const { model, config, database, eager } = this.#state
    hideColumns(config, rows)
    for (const [name, { constraints, nested }] of byRelation(eager)) {
      const relation = relationOf(model, name)
      let query: ModelQueryBuilder<unknown, never> = relation.related()[NEW_QUERY](database)
      if (nested.length > 0) query = query.#next({ eager: nested })
      for (const constrain of constraints) query = returnedQuery(constrain(query), 'The callback of with()')
      await relation.eagerLoad(rows, query)
    }
    return rows
  }
}

/** The relation a model declares under that name. */
function relationOf(model: any, name: string): Relation {
  const relation: unknown = model[name]
  if (!(relation instanceof Relation)) {
    throw new TypeError(`${model.name} has no relation "${name}": declare it as static ${name} = this.hasMany(() => Related) (or hasOne, belongsTo, belongsToMany)`)
  }
  // Its name is known here, on first use (belongsTo's default foreign key is derived from it).
  if (relation.name === '') relation.name = name
  return relation
}

/** The eager loads grouped by their first relation: its own constraints, and the paths below it. */
function byRelation(eager: readonly Eager[]): Map<string, { constraints: ((query: any) => any)[]; nested: Eager[] }> {
  const groups = new Map<string, { constraints: ((query: any) => any)[]; nested: Eager[] }>()
  for (const { path, constrain } of eager) {
    const dot = path.indexOf('.')
    const name = dot === -1 ? path : path.slice(0, dot)
    const group = groups.get(name) ?? { constraints: [], nested: [] }
    groups.set(name, group)
    if (dot !== -1) group.nested.push({ path: path.slice(dot + 1), constrain })
    else if (constrain) group.constraints.push(constrain)
  }
  return groups
}

/** What a scope or a callback returned, which must be the query it was given, changed: queries are immutable. */
function returnedQuery(result: unknown, by: string): ModelQueryBuilder<unknown, never> {
  if (!(result instanceof ModelQueryBuilder)) {
    throw new TypeError(`${by} must return the query it was given, changed (queries are immutable): (query) => query.where(...)`)
  }
  return result
}

const queryClasses = new WeakMap<object, new (state: State) => ModelQueryBuilder<unknown, never>>()

/**
 * A new query of a model's table on a database, of the model's own query class: ModelQueryBuilder with a method per
 * scope the model declares (made once per model).
 */
export function newModelQuery(model: object, database: Kysely<any>, alias?: string): ModelQueryBuilder<unknown, never> {
  const config = modelConfig(model)
  const ref = alias ?? config.table
  const Query = queryClasses.get(model) ?? queryClassOf(model)
  const builder = database.selectFrom(alias ? `${config.table} as ${alias}` : config.table).selectAll(ref)
  return new Query({ model, config, database, ref, builder, trashed: 'without', eager: [] })
}

function queryClassOf(model: object): new (state: State) => ModelQueryBuilder<unknown, never> {
  const Query = class extends ModelQueryBuilder<unknown, never> {}
  for (const [name, scope] of scopesOf(model)) {
    if (name in ModelQueryBuilder.prototype) {
      throw new TypeError(`The scope "${name}" of ${(model as { name: string }).name} has the name of a query method: name it otherwise`)
    }
    Object.defineProperty(Query.prototype, name, {
      value(this: ModelQueryBuilder<unknown, never>, ...args: unknown[]) {
        return returnedQuery(scope.apply(this, ...args), `The scope ${name}`)
      },
    })
  }
  queryClasses.set(model, Query)
  return Query
}

/** The scopes a model class and its parents declare, by name. */
function scopesOf(model: object): Map<string, Scope> {
  const scopes = new Map<string, Scope>()
  for (let owner: object | null = model; owner !== null && owner !== Function.prototype; owner = Object.getPrototypeOf(owner)) {
    for (const name of Object.getOwnPropertyNames(owner)) {
      const value: unknown = Object.getOwnPropertyDescriptor(owner, name)?.value
      if (value instanceof Scope && !scopes.has(name)) scopes.set(name, value)
    }
  }
  return scopes
}
