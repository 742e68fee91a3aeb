import pluralize from 'pluralize'
import { modelConfig, type ModelConfig } from '../database/ModelConfig.js'
import { modelKey } from '../database/modelKey.js'
import type { AnyModel } from '../database/modelTypes.js'
import { HasOneOrMany } from '../database/relations/HasOneOrMany.js'
import { HttpError } from '../http/HttpError.js'
import { needsBoundModels } from '../http/boundModels.js'
import type { Middleware } from '../http/Middleware.js'
import type { Request } from '../http/Request.js'
import type { Pipeline } from './compilePipeline.js'
import type { RouteDefinition } from './RouteDefinition.js'

type Row = Record<string, unknown>

/** What binding asks of a model's query (a ModelQuery, whatever its table). */
interface BindingQuery {
  withTrashed(): BindingQuery
  where(column: string, operator: '=', value: unknown): BindingQuery
  first(): Promise<Row | undefined>
}

/** One bound parameter, resolved when the routes compile. */
interface Binding {
  /** The parameter's place among the route's values. */
  readonly index: number
  readonly name: string
  readonly model: { query(): BindingQuery }
  readonly config: ModelConfig
  /** The column the value is compared with, table included: the key, or the pattern's `{post:slug}` column. */
  readonly column: string
  /** Whether the column is the key, whose type (`keyType`) says which values can name a row. */
  readonly byKey: boolean
  readonly withTrashed: boolean
  /** When scoped: the relation of the bound model before this one that holds it, and that model's place among the values. */
  readonly scope: { readonly relation: HasOneOrMany<unknown, boolean>; readonly parent: number } | undefined
}

const DIGITS = /^\d+$/

/**
 * The bound parameters of a route (`.bind('post', Post)`), resolved once when the routes compile: each model's key or
 * column, whether soft-deleted rows count, and the relation a scoped child is found through. A mistake (a
 * `{post:slug}` without a model, a scope without a relation) throws then, naming the route.
 */
export class RouteBindings {
  readonly #bindings: readonly Binding[]

  constructor(route: RouteDefinition) {
    const fields = route.bindingFields ?? {}
    const bound = route.bindings ?? {}
    for (const name of Object.keys(fields)) {
      if (bound[name] === undefined) {
        throw new Error(`Route "${route.pattern}": {${name}:${fields[name]}} finds a model by its ${fields[name]}, but no model is bound to {${name}}: add .bind('${name}', Model)`)
      }
    }
    const bindings: Binding[] = []
    for (const [index, name] of route.paramNames.entries()) {
      const model = bound[name]
      if (model === undefined) continue
      const config = modelConfig(model)
      const field = fields[name] ?? config.primaryKey
      const scoped = bindings.length > 0 && (route.scopedBindings ?? fields[name] !== undefined)
      bindings.push({
        index,
        name,
        model: model as unknown as { query(): BindingQuery },
        config,
        column: `${config.table}.${field}`,
        byKey: field === config.primaryKey,
        withTrashed: route.bindsTrashed && config.softDeletes,
        scope: scoped ? { relation: childRelation(route, bindings.at(-1)!, name, model), parent: bindings.at(-1)!.index } : undefined,
      })
    }
    this.#bindings = bindings
  }

  /**
   * Loads the bound models in path order and hands each to the request (`request.model(name)`); an HttpError 404 when
   * one is missing, or when its value cannot name a row (then without a query). Resolves to the handler's arguments:
   * the values, each bound one's row in its place.
   */
  async load(request: Request, values: readonly (string | undefined)[]): Promise<unknown[]> {
    const args: unknown[] = values.slice()
    for (const binding of this.#bindings) {
      const value = values[binding.index]
      // An optional parameter the path leaves out binds nothing: the handler gets undefined, as it would the string.
      if (value === undefined) continue
      const parent = binding.scope && (args[binding.scope.parent] as Row | undefined)
      const row = await find(binding, value, parent)
      if (row === undefined) throw new HttpError(404, 'Not Found')
      request.bindModel(binding.name, row)
      args[binding.index] = row
    }
    return args
  }

  /** The handler's arguments once a binding layer has loaded the models: the values, each bound one's row in its place. */
  loaded(request: Request, values: readonly string[]): unknown[] {
    const args: unknown[] = values.slice()
    for (const binding of this.#bindings) if (binding.index < args.length) args[binding.index] = request.model(binding.name)
    return args
  }
}

/**
 * The route's middleware and handler step with its models bound. The models load just before the handler, after every
 * middleware (an unauthenticated request costs no query and learns nothing of what exists), unless a middleware marked
 * with `readsBoundModels` (`can:update,post`) needs them: then they load right before the first one, as Laravel's
 * middleware priority puts SubstituteBindings before Authorize.
 */
export function bindModels(route: RouteDefinition, layers: readonly Middleware[], handler: Pipeline): { layers: readonly Middleware[]; handler: Pipeline } {
  const bindings = new RouteBindings(route)
  const at = layers.findIndex(needsBoundModels)
  if (at === -1) {
    return {
      layers,
      handler: async (request, values) => handler(request, (await bindings.load(request, values)) as string[]),
    }
  }
  const load: Middleware = async (request, next) => {
    await bindings.load(request, route.paramNames.map((name) => request.param(name)))
    return next()
  }
  return {
    layers: [...layers.slice(0, at), load, ...layers.slice(at)],
    handler: (request, values) => handler(request, bindings.loaded(request, values) as string[]),
  }
}

/**
 * The relation through which a scoped child is found: the parent model's relation named after the child parameter,
 * plural (`User.posts` for `{post}`) or as it is (`User.profile` for `{profile}`), a `hasMany` or `hasOne` of the
 * child's model. Its absence is a mistake of the route, said at startup.
 */
function childRelation(route: RouteDefinition, parent: Binding, name: string, model: AnyModel): HasOneOrMany<unknown, boolean> {
  const owner = route.bindings![parent.name] as unknown as Record<string, unknown>
  const ownerName = (owner as { name?: string }).name || parent.config.table
  const childName = (model as { name?: string }).name || modelConfig(model).table
  for (const key of [pluralize(name), name]) {
    const relation = owner[key]
    if (relation instanceof HasOneOrMany && relation.related() === model) return relation
  }
  throw new Error(
    `Route "${route.pattern}": {${name}} is scoped to {${parent.name}}, so ${ownerName} needs a relation "${pluralize(name)}" to ${childName} ` +
      `(static ${pluralize(name)} = this.hasMany(() => ${childName})); or find it by itself with .withoutScopedBindings()`,
  )
}

/**
 * The row a bound value names, among the parent's children when scoped; undefined when there is none, or when the
 * value cannot be the key (`abc`, `1.5` or `-1` for an integer key): then without a query.
 */
async function find(binding: Binding, value: string, parent: Row | undefined): Promise<Row | undefined> {
  const key = keyOf(binding, value)
  if (key === undefined) return undefined
  let query = binding.model.query()
  if (binding.withTrashed) query = query.withTrashed()
  if (binding.scope !== undefined && parent !== undefined) {
    for (const [column, owner] of Object.entries(binding.scope.relation.valuesFor(parent))) query = query.where(`${binding.config.table}.${column}`, '=', owner)
  }
  query = query.where(binding.column, '=', key)
  if (binding.byKey) return query.first()
  try {
    return await query.first()
  } catch (error) {
    // A column Fw knows no type of: PostgreSQL refuses a value its type cannot hold (`abc` for an integer, 22P02) with
    // a data exception (class 22). That value names no row, as on SQLite.
    if (/^22/.test(String((error as { code?: unknown } | null)?.code))) return undefined
    throw error
  }
}

/** The value as the key column holds it, or undefined when it cannot: an integer key is digits only (no `-1`, `1.5`, `+1`). */
function keyOf(binding: Binding, value: string): unknown {
  if (!binding.byKey) return modelKey('string', value)
  const type = binding.config.keyType
  if ((type === 'integer' || type === 'bigint') && !DIGITS.test(value)) return undefined
  return modelKey(type, value)
}
