import type { StandardSchemaV1 } from '@standard-schema/spec'
import type { Constructor } from '../container/Container.js'
import { modelConfig } from '../database/ModelConfig.js'
import type { AnyModel } from '../database/modelTypes.js'
import type { Request } from '../http/Request.js'
import type { HandlerResult, Middleware } from '../http/Middleware.js'
import type { Response } from '../http/Response.js'
import type { ContractResponse, RouteContract } from './RouteContract.js'
import { NOT_FOUND_BODY } from './notFoundBody.js'
import type { Requirement } from './routePattern.js'

export type { HandlerResult, Middleware, Next } from '../http/Middleware.js'

/**
 * A closure handler: the Request, then the route parameters in order (a domain's first, then the path's), as
 * strings; an optional parameter absent from the path is undefined (or its `.defaults()` value). A parameter bound
 * to a model (`.bind('post', Post)`) comes as its row, which the closure types: `(request, post: RowOf<typeof Post>)`.
 */
export type RouteClosure<P extends unknown[] = string[]> = (request: Request, ...params: P) => HandlerResult | Promise<HandlerResult>

type MethodNames<T> = { [K in keyof T]: T[K] extends (...args: never[]) => unknown ? K : never }[keyof T] & string

/** `[UserController, 'show']`: the controller is built from the container for each request. */
export type ControllerAction<T = object> = readonly [Constructor<T>, MethodNames<T>]

export type RouteHandler<T = object, P extends unknown[] = string[]> = RouteClosure<P> | ControllerAction<T>

/** A middleware function, or the name it was registered under with `router.aliasMiddleware`. */
export type MiddlewareReference = Middleware | string

/** The router a route belongs to: it learns the route's name, and refuses changes once it is frozen. */
export interface RouteNames {
  nameRoute(name: string, route: RouteDefinition): void
  assertOpen(change: string): void
}

/** What `router.domain(pattern)` gives: `.group(routes)`, as Laravel's `Route::domain(…)->group(…)`. */
export interface DomainGroup {
  /** Registers the routes that `routes` adds on the domain (inside the groups around this call). */
  group(routes: () => void): void
}

/** A path prefix for every route in a group, middleware, a name prefix, and the domain the routes answer on. */
export interface GroupOptions {
  /** A path prefix for every route in the group, e.g. `/api`. */
  prefix?: string
  /**
   * The host the group's routes answer on, e.g. `{account}.example.com`: its parameters come before the path's.
   * An inner group's domain replaces an outer one's.
   */
  domain?: string
  middleware?: MiddlewareReference | MiddlewareReference[]
  /** A prefix for route names in the group, e.g. `admin.`. */
  as?: string
  /** Leaves the group's routes out of the OpenAPI document, as `.excludeFromDocs()` does each one (an admin panel's pages). */
  excludeFromDocs?: boolean
}

/** The 200 that `.bind()` declares for a route that declares no success, as the document gives one that declares nothing. */
const BOUND_SUCCESS: ContractResponse = Object.freeze({ description: 'OK' })

const isSuccess = (status: string) => status.startsWith('2')

/** A parameter's constraint, by its place in the path. */
interface Constraint {
  readonly index: number
  readonly pattern: RegExp
  /** The pattern as given, for the route's segments of text and parameters (see `compileSegment`). */
  readonly requirement: Requirement
}

/**
 * One registered route: methods, pattern, handler, middleware and an optional name.
 * `Route.get(...)` returns it so that calls chain.
 *
 * @example
 * ```ts
 * Route.get('/users/{id}', [UserController, 'show']).name('users.show').middleware('auth')
 * ```
 */
export class RouteDefinition {
  readonly methods: readonly string[]
  /** The path pattern, as registered: `/users/{id}`. */
  readonly pattern: string
  /** The host pattern of a domain route, `{account}.example.com`; undefined for a route that answers on any host. */
  readonly domain: string | undefined
  readonly handler: RouteHandler
  /**
   * The parameter names in order, the domain's before the path's: `['user', 'post']` for `/users/{user}/posts/{post}`,
   * `['account', 'id']` for `/users/{id}` on `{account}.example.com`.
   */
  readonly paramNames: readonly string[]
  readonly middlewareList: MiddlewareReference[]
  routeName: string | undefined
  /** The `as` prefixes of the groups around the route, put before its name. */
  namePrefix = ''
  /** The constraints of `where`, checked when the path matches; null when there are none. */
  constraints: Constraint[] | null = null
  /** The values of `.defaults()`, by parameter name; null when there are none. */
  defaultValues: Readonly<Record<string, string>> | null = null
  /** What the route takes and gives (`.body()`, `.returns()`, `.contract()`, …); undefined when it declares nothing. */
  declared: RouteContract | undefined = undefined
  /** The models bound to parameters with `.bind()`, by parameter name; null when there are none. */
  bindings: Readonly<Record<string, AnyModel>> | null = null
  /** The column a bound parameter is found by, from the pattern's `{post:slug}`, by parameter name; null when none names one. */
  bindingFields: Readonly<Record<string, string>> | null = null
  /** `.withTrashed()`: bound models are found soft-deleted too. */
  bindsTrashed = false
  /** `.excludeFromDocs()`: the route is left out of the OpenAPI document and the typed client. */
  excludedFromDocs = false
  /** `.scopeBindings()` (true) or `.withoutScopedBindings()` (false); undefined: scoped when the child names a column. */
  scopedBindings: boolean | undefined = undefined
  /** Middleware, handler and controller construction composed into one step, set when the router compiles. @internal */
  pipeline: ((request: Request, values: readonly string[]) => Response | Promise<Response>) | undefined = undefined
  /** The middleware of `pipeline`, outermost first (global, path-scoped, group, route), set with it. @internal */
  layers: Middleware[] | undefined = undefined

  private readonly names: RouteNames

  constructor(
    methods: readonly string[],
    pattern: string,
    handler: RouteHandler,
    paramNames: readonly string[],
    middleware: MiddlewareReference[],
    names: RouteNames,
    domain?: string,
  ) {
    this.methods = methods
    this.pattern = pattern
    this.domain = domain
    this.handler = handler
    this.paramNames = paramNames
    this.middlewareList = middleware
    this.names = names
  }

  /** Adds middleware that runs for this route only, after global and group middleware. */
  middleware(...middleware: MiddlewareReference[]): this {
    this.names.assertOpen(`middleware on ${this}`)
    this.middlewareList.push(...middleware)
    this.pipeline = undefined
    return this
  }

  /** Names the route, for `router.url(name, params)` and `request.route()`; a name already taken throws. */
  name(name: string): this {
    this.names.nameRoute(name, this)
    this.routeName = this.namePrefix + name
    return this
  }

  /**
   * Matches only when the parameter's whole value matches the pattern; otherwise the path is not found (404). In a
   * segment like `{foo}-{bar}` the pattern decides where the parameter ends, as in Laravel (see `compileSegment`),
   * and a segment it refuses goes on to a whole-segment `{param}` route at that place. On a domain's
   * parameter, a host the pattern refuses is not the route's: a route without a domain at that path answers instead.
   *
   * @example
   * ```ts
   * Route.get('/users/{id}', [UserController, 'show']).where('id', /\d+/)
   * ```
   */
  where(parameter: string, pattern: RegExp | string): this {
    this.names.assertOpen(`a constraint on ${this}`)
    const index = this.paramNames.indexOf(parameter)
    if (index === -1) throw new Error(`Route "${this.pattern}" has no parameter {${parameter}} to constrain`)
    const source = typeof pattern === 'string' ? pattern : pattern.source
    const flags = typeof pattern === 'string' ? '' : pattern.flags.replace(/[gy]/g, '')
    const constraint = { index, pattern: new RegExp(`^(?:${source})$`, flags), requirement: { source, flags } }
    this.constraints = [...(this.constraints ?? []).filter((existing) => existing.index !== index), constraint]
    return this
  }

  /**
   * The value an optional parameter takes when the path leaves it out, as Laravel's `->defaults()`: the handler gets
   * it instead of undefined, and so does `request.param()` from the handler on (middleware before it see the path as
   * it is). `router.url()` still leaves the parameter out when it is not given.
   *
   * @example
   * ```ts
   * Route.get('/posts/{page?}', [PostController, 'index']).defaults('page', 1) // GET /posts: page is '1'
   * ```
   */
  defaults(parameter: string, value: string | number): this {
    this.names.assertOpen(`a default on ${this}`)
    if (!this.pattern.includes(`{${parameter}?}`)) {
      throw new Error(`Route "${this.pattern}": a default is for an optional parameter, {${parameter}?}, and the route has none of that name`)
    }
    this.defaultValues = { ...this.defaultValues, [parameter]: String(value) }
    this.pipeline = undefined
    return this
  }

  /** `where(parameter, /\d+/)`: digits only. */
  whereNumber(...parameters: string[]): this {
    for (const parameter of parameters) this.where(parameter, /\d+/)
    return this
  }

  /** `where(parameter, /[A-Za-z]+/)`: letters only. */
  whereAlpha(...parameters: string[]): this {
    for (const parameter of parameters) this.where(parameter, /[A-Za-z]+/)
    return this
  }

  /**
   * Declares the request body: `request.validate()` without an argument validates against it, and the OpenAPI
   * document describes it. Nothing is validated unless the handler calls `request.validate()`.
   *
   * @example
   * ```ts
   * Route.post('/posts', [PostController, 'store']).body(z.object({ title: z.string() })).returns(201, PostOut)
   * ```
   */
  body(schema: StandardSchemaV1): this {
    return this.declare({ body: schema })
  }

  /**
   * Declares the query string: `request.validate('query')` validates against it, and the document lists its fields.
   *
   * @example
   * ```ts
   * Route.get('/posts', [PostController, 'index']).query(z.object({ page: z.coerce.number().int().min(1).optional() }))
   * ```
   */
  query(schema: StandardSchemaV1): this {
    return this.declare({ query: schema })
  }

  /**
   * Declares schemas for path parameters. They are checked before the handler runs (after the middleware): a value
   * a schema refuses is a 404, as a value `where` refuses. The handler still receives the strings of the path.
   *
   * @example
   * ```ts
   * Route.get('/posts/{id}', [PostController, 'show']).params({ id: z.string().regex(/^\d+$/) })
   * ```
   */
  params(schemas: Readonly<Record<string, StandardSchemaV1>>): this {
    for (const name of Object.keys(schemas)) {
      if (!this.paramNames.includes(name)) throw new Error(`Route "${this.pattern}" has no parameter {${name}} to declare`)
    }
    this.pipeline = undefined
    return this.declare({ params: { ...this.declared?.params, ...schemas } })
  }

  /**
   * Declares a response by status: the schema of its JSON body, or the media type of a body that is not JSON (a page
   * is `'text/html'`), or a list of them for a response that comes in several forms; nothing for an empty body; and a
   * description.
   *
   * @example
   * ```ts
   * Route.get('/posts/{id}', [PostController, 'show']).returns(200, PostOut).returns(404, undefined, 'No such post')
   * Route.get('/login', [LoginController, 'show']).returns(200, 'text/html', 'The sign-in page')
   * Route.get('/report', [ReportController, 'show']).returns(200, [Report, 'text/csv'], 'JSON, or CSV with ?format=csv')
   * ```
   */
  returns(status: number, body?: StandardSchemaV1 | string | readonly (StandardSchemaV1 | string)[], description?: string): this {
    if (!Number.isInteger(status) || status < 100 || status > 599) throw new Error(`Route "${this.pattern}": ${status} is not an HTTP status`)
    const forms = body === undefined ? [] : Array.isArray(body) ? body : [body as StandardSchemaV1 | string]
    const schemas = forms.filter((form): form is StandardSchemaV1 => typeof form !== 'string')
    const mediaTypes = forms.filter((form): form is string => typeof form === 'string')
    for (const type of mediaTypes) {
      if (!/^[a-z]+\/[a-z0-9.+-]+$/i.test(type)) throw new Error(`Route "${this.pattern}": "${type}" is not a media type (text/html, text/csv, …) nor a schema`)
    }
    if (schemas.length > 1) throw new Error(`Route "${this.pattern}": ${status} has one JSON schema; give the others as a union`)
    const response = {
      ...(schemas[0] ? { schema: schemas[0] } : {}),
      ...(mediaTypes.length > 0 ? { mediaTypes } : {}),
      ...(description ? { description } : {}),
    }
    return this.declare({ responses: { ...this.declared?.responses, [status]: response } })
  }

  /** One line that says what the route does, for the OpenAPI document: `.summary('Create a post')`. */
  summary(text: string): this {
    return this.declare({ summary: text })
  }

  /** The route's tags in the OpenAPI document, instead of its controller's name: `.tags('Posts')`. */
  tags(...tags: string[]): this {
    return this.declare({ tags })
  }

  /**
   * Leaves the route out of the OpenAPI document (`/openapi.json`, `fw openapi`), and so out of the typed client of
   * `fw types`: pages for people rather than an API, as an admin panel's, or a webhook only one sender calls. The
   * route answers as before. A group leaves out all of its routes with `{ excludeFromDocs: true }`.
   *
   * @example
   * ```ts
   * Route.post('/webhooks/stripe', [StripeWebhookController, 'handle']).excludeFromDocs()
   * ```
   */
  excludeFromDocs(): this {
    this.excludedFromDocs = true
    return this
  }

  /**
   * Declares a whole contract at once (see `defineContract`), over what the route declared before.
   *
   * @example
   * ```ts
   * Route.post('/posts', [PostController, 'store']).contract(storePost)
   * ```
   */
  contract(contract: RouteContract): this {
    if (contract.params) this.params(contract.params)
    return this.declare({ ...contract, params: this.declared?.params, responses: { ...this.declared?.responses, ...contract.responses } })
  }

  /**
   * Binds a parameter to a model, as Laravel's route model binding: before the handler runs, the row whose key is the
   * parameter's value is loaded (`{post:slug}` in the pattern: whose `slug` is), soft-deleted rows left out unless
   * the route says `.withTrashed()`. The handler gets the row in place of the string, and middleware that run after
   * the binding read it with `request.model('post')`. No row is a 404, and so is a value the key column cannot hold
   * (`abc`, `1.5` or `-1` for an integer key, a non-uuid for a uuid key), without a query. The route's document
   * shows the 404. The models load after the route's middleware, except for an authorization middleware
   * (`can:update,post`), before which they load, so that it can read them (Laravel's middleware priority).
   *
   * @example
   * ```ts
   * Route.get('/posts/{post}', [PostController, 'show']).bind('post', Post)
   * // in PostController: show(request: Request, post: RowOf<typeof Post>) { return post }
   * Route.get('/posts/{post:slug}', (request: Request, post: RowOf<typeof Post>) => post).bind('post', Post)
   * ```
   */
  bind(parameter: string, model: AnyModel): this {
    this.names.assertOpen(`a binding on ${this}`)
    if (!this.paramNames.includes(parameter)) throw new Error(`Route "${this.pattern}" has no parameter {${parameter}} to bind`)
    modelConfig(model) // a class that is not a model throws here, at the route that names it
    this.bindings = { ...this.bindings, [parameter]: model }
    this.pipeline = undefined
    const declared = this.declared?.responses?.[404]
    if (declared === undefined || declared.schema === NOT_FOUND_BODY) {
      const names = Object.values(this.bindings).map((bound) => (bound as { name?: string }).name || bound.table)
      this.returns(404, NOT_FOUND_BODY, `No ${names.join(' or ')} at this path`)
    }
    // A route that declared no success had the document's default 200; declaring the 404 alone would take it away.
    const responses = this.declared!.responses!
    if (!Object.keys(responses).some(isSuccess)) this.declare({ responses: { ...responses, 200: BOUND_SUCCESS } })
    return this
  }

  /**
   * Finds the route's bound models soft-deleted too (Laravel's `->withTrashed()`): a page that restores a post.
   *
   * @example
   * ```ts
   * Route.post('/posts/{post}/restore', [PostController, 'restore']).bind('post', Post).withTrashed()
   * ```
   */
  withTrashed(): this {
    this.names.assertOpen(`a binding on ${this}`)
    this.bindsTrashed = true
    this.pipeline = undefined
    return this
  }

  /**
   * Finds each bound model among the children of the bound model before it in the path, as Laravel's
   * `->scopeBindings()`: for `/users/{user}/posts/{post}`, the post must be one of the user's, through the parent's
   * relation named after the child parameter, plural (`User.posts`, a `hasMany` or `hasOne` of `Post`); another
   * user's post is a 404. A child found by a column (`{post:slug}`) is scoped without asking.
   *
   * @example
   * ```ts
   * Route.get('/users/{user}/posts/{post}', [PostController, 'show']).bind('user', User).bind('post', Post).scopeBindings()
   * ```
   */
  scopeBindings(): this {
    return this.scopeBy(true)
  }

  /** Finds each bound model by its own key alone, even a child found by a column (`{post:slug}`): no scoping. */
  withoutScopedBindings(): this {
    return this.scopeBy(false)
  }

  private scopeBy(scoped: boolean): this {
    this.names.assertOpen(`a binding on ${this}`)
    this.scopedBindings = scoped
    this.pipeline = undefined
    return this
  }

  private declare(part: RouteContract): this {
    this.names.assertOpen(`a contract on ${this}`)
    this.declared = { ...this.declared, ...part }
    const responses = this.declared.responses
    if (responses?.[200] === BOUND_SUCCESS && Object.keys(responses).some((status) => status !== '200' && isSuccess(status))) {
      // `.bind()`'s stand-in for the default 200 gives way to the success the route declares (`.returns(204)`).
      const { 200: _standIn, ...declared } = responses
      this.declared = { ...this.declared, responses: declared }
    }
    // The pipeline holds the answers to the declared responses: it is compiled again with them.
    this.pipeline = undefined
    return this
  }

  /** The `where` pattern of a parameter, if it has one. */
  requirementOf(parameter: string): Requirement | undefined {
    const index = this.paramNames.indexOf(parameter)
    return this.constraints?.find((constraint) => constraint.index === index)?.requirement
  }

  /** Whether the parameter values meet every constraint. */
  accepts(values: readonly string[]): boolean {
    for (const { index, pattern } of this.constraints!) {
      const value = values[index]
      if (value !== undefined && !pattern.test(value)) return false
    }
    return true
  }

  /** A readable description of the handler, e.g. `UserController@show` or `Closure`. */
  describeHandler(): string {
    if (typeof this.handler === 'function') return this.handler.name ? `Closure (${this.handler.name})` : 'Closure'
    return `${this.handler[0].name}@${this.handler[1]}`
  }

  /** `GET /users/{id}` (`GET {account}.example.com/users/{id}` on a domain): how the route is named in error messages and logs. */
  toString(): string {
    return `${this.methods.join('|')} ${this.domain ?? ''}${this.pattern}`
  }
}
