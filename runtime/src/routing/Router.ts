import { existsSync } from 'node:fs'
import { isAbsolute, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Container } from '../container/Container.js'
import { debugPage, errorPage } from '../http/errorPage.js'
import { HttpError } from '../http/HttpError.js'
import type { Request } from '../http/Request.js'
import { Response } from '../http/Response.js'
import { createLogger, type Logger } from '../log/Logger.js'
import { requestLog } from '../log/requestLog.js'
import { startSession } from '../session/startSession.js'
import { verifyCsrfToken } from '../session/verifyCsrfToken.js'
import { Route } from './Route.js'
import {
  RouteDefinition,
  type HandlerResult,
  type Middleware,
  type MiddlewareReference,
  type RouteHandler,
} from './RouteDefinition.js'
import { RouteTree } from './RouteTree.js'

export interface RouterOptions {
  /** Put the error message and stack in 500 bodies. Defaults to `APP_DEBUG=true` in the environment. */
  debug?: boolean
  /** Where errors (always) and requests (with `LOG_REQUESTS=true`) are logged; JSON lines in production. */
  logger?: Logger
}

export interface GroupOptions {
  /** A path prefix for every route in the group, e.g. `/api`. */
  prefix?: string
  middleware?: MiddlewareReference | MiddlewareReference[]
  /** A prefix for route names in the group, e.g. `admin.`. */
  as?: string
}

/**
 * One step of a request: the request, and the route's parameter values in path order (none outside a route).
 * A step that can answer at once returns the Response itself (no promise, no turn of the event loop);
 * it may also throw, which `dispatch` and the middleware layers turn into an error response.
 */
type Pipeline = (request: Request, values: readonly string[]) => Response | Promise<Response>

const NO_VALUES: readonly string[] = []

const ALL_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const

/** Every file loaded once, so that loading it again for another router re-runs its `Route.*` calls. */
const loadedFiles = new Map<string, number>()
/** Route files register on whichever router is loading: one load at a time. */
let loading: Promise<unknown> = Promise.resolve()

function isPlainResult(value: unknown): value is Record<string, unknown> | unknown[] {
  if (Array.isArray(value)) return true
  if (typeof value !== 'object' || value === null) return false
  const prototype = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value)
  if (typeof value === 'object') return `an instance of ${value.constructor?.name ?? 'Object'}`
  return `a ${typeof value}`
}

function joinPaths(parts: string[]): string {
  return `/${parts.map((part) => part.replace(/^\/+|\/+$/g, '')).filter(Boolean).join('/')}`
}

/**
 * Holds the routes and answers requests: finds the route, runs its middleware and handler,
 * and turns every failure into the right error response.
 *
 * @example
 * ```ts
 * const router = new Router(Container.getInstance())
 * await router.loadRoutesFromFile('routes/web.ts')
 * const response = await router.dispatch(await Request.capture(req))
 * response.send(res)
 * ```
 */
export class Router {
  readonly container: Container
  readonly debug: boolean
  readonly logger: Logger

  private readonly tree = new RouteTree()
  private readonly definitions: RouteDefinition[] = []
  private readonly named = new Map<string, RouteDefinition>()
  private readonly globalMiddleware: MiddlewareReference[] = []
  private readonly aliases = new Map<string, Middleware>()
  private readonly groups: GroupOptions[] = []
  private readonly pipelines = new Map<RouteDefinition, Pipeline>()
  private appPipeline: Pipeline | undefined

  constructor(container: Container = Container.getInstance(), options: RouterOptions = {}) {
    this.container = container
    this.debug = options.debug ?? process.env.APP_DEBUG === 'true'
    this.logger = options.logger ?? createLogger()
    // Ready for any route to name: `.middleware('session', 'csrf')`.
    this.aliases.set('session', startSession()).set('csrf', verifyCsrfToken())
    // Outermost, so that its time and status cover everything; absent unless asked for, so it costs nothing then.
    if (process.env.LOG_REQUESTS === 'true') this.globalMiddleware.push(requestLog(this.logger))
  }

  get<T>(pattern: string, handler: RouteHandler<T>): RouteDefinition {
    return this.addRoute(['GET'], pattern, handler)
  }

  post<T>(pattern: string, handler: RouteHandler<T>): RouteDefinition {
    return this.addRoute(['POST'], pattern, handler)
  }

  put<T>(pattern: string, handler: RouteHandler<T>): RouteDefinition {
    return this.addRoute(['PUT'], pattern, handler)
  }

  patch<T>(pattern: string, handler: RouteHandler<T>): RouteDefinition {
    return this.addRoute(['PATCH'], pattern, handler)
  }

  delete<T>(pattern: string, handler: RouteHandler<T>): RouteDefinition {
    return this.addRoute(['DELETE'], pattern, handler)
  }

  options<T>(pattern: string, handler: RouteHandler<T>): RouteDefinition {
    return this.addRoute(['OPTIONS'], pattern, handler)
  }

  /** A route for every method (GET, POST, PUT, PATCH, DELETE, OPTIONS; HEAD follows GET). */
  any<T>(pattern: string, handler: RouteHandler<T>): RouteDefinition {
    return this.addRoute(ALL_METHODS, pattern, handler)
  }

  /** A route for the listed methods: `router.match(['GET', 'POST'], '/form', handler)`. */
  match<T>(methods: readonly string[], pattern: string, handler: RouteHandler<T>): RouteDefinition {
    return this.addRoute(methods, pattern, handler)
  }

  /**
   * Routes that share a path prefix, middleware or a name prefix. Groups nest.
   *
   * @example
   * ```ts
   * router.group({ prefix: '/api', middleware: 'auth' }, () => {
   *   Route.get('/me', [ProfileController, 'show'])
   * })
   * ```
   */
  group(options: GroupOptions, routes: () => void): void {
    this.groups.push(options)
    try {
      routes()
    } finally {
      this.groups.pop()
    }
  }

  /** Adds middleware that runs for every request, in the order added, around route middleware. */
  use(...middleware: MiddlewareReference[]): this {
    this.globalMiddleware.push(...middleware)
    this.appPipeline = undefined
    return this
  }

  /** Names a middleware so that routes can refer to it by a string: `.middleware('auth')`. */
  aliasMiddleware(name: string, middleware: Middleware): this {
    this.aliases.set(name, middleware)
    this.appPipeline = undefined
    this.pipelines.clear()
    return this
  }

  /** Every registered route, in registration order (for `fw route:list`). */
  getRoutes(): readonly RouteDefinition[] {
    return this.definitions
  }

  /** The names of the global middleware, for listings. */
  getGlobalMiddleware(): readonly MiddlewareReference[] {
    return this.globalMiddleware
  }

  /**
   * The path of a named route, with its parameters filled in; other values go into the query string.
   *
   * @example
   * ```ts
   * router.url('users.show', { id: 5 }) // '/users/5'
   * ```
   */
  url(name: string, params: Record<string, string | number> = {}): string {
    const route = this.named.get(name)
    if (!route) throw new Error(`No route is named "${name}"`)
    const rest = new URLSearchParams()
    for (const [key, value] of Object.entries(params)) {
      if (!route.paramNames.includes(key)) rest.append(key, String(value))
    }
    const path = route.pattern.replace(/\{([A-Za-z_][A-Za-z0-9_]*)(\?)?\}/g, (_, key: string, optional?: string) => {
      const value = params[key]
      if (value === undefined) {
        if (optional) return ''
        throw new Error(`Route "${name}" needs the parameter "${key}"`)
      }
      return encodeURIComponent(String(value))
    })
    const query = rest.toString()
    const cleanPath = path.length > 1 ? path.replace(/\/+$/, '') : path
    return query ? `${cleanPath}?${query}` : cleanPath
  }

  /**
   * Imports a routes file whose `Route.*` calls register on this router. A `.ts` path falls back to
   * the compiled `.js` beside it (and the other way round), so one call serves development and production.
   */
  async loadRoutesFromFile(path: string | URL): Promise<void> {
    const file = resolveRoutesFile(path)
    const count = loadedFiles.get(file) ?? 0
    loadedFiles.set(file, count + 1)
    await this.loadRoutes(() => import(pathToFileURL(file).href + (count > 0 ? `?router=${count}` : '')))
  }

  /**
   * Runs an import (or any loader) whose `Route.*` calls register on this router: for code that imports the
   * routes itself, such as a test that vitest transforms.
   *
   * @example
   * ```ts
   * await router.loadRoutes(() => import('../routes/web.js'))
   * ```
   */
  async loadRoutes(load: () => Promise<unknown>): Promise<void> {
    const run = loading.then(async () => {
      Route.setRouter(this)
      try {
        await load()
      } finally {
        Route.setRouter(undefined)
      }
    })
    loading = run.catch(() => undefined)
    await run
  }

  /**
   * Answers a request. Always resolves to a Response and never throws: no route is a 404, a wrong
   * method a 405 with `Allow`, an HttpError its own status, anything else a 500.
   */
  dispatch(request: Request): Promise<Response> {
    return this.answer(this.application, request, NO_VALUES)
  }

  /** The whole application as one step: the body's error if reading it failed, else global middleware around the router. */
  private readonly application: Pipeline = (request, values) => {
    if (request.bodyError) throw request.bodyError
    this.appPipeline ??= this.buildAppPipeline()
    return this.appPipeline(request, values)
  }

  /** Runs a step and resolves to its Response, or to the error response for whatever it threw or rejected with. */
  private answer(step: Pipeline, request: Request, values: readonly string[]): Promise<Response> {
    let result: Response | Promise<Response>
    try {
      result = step(request, values)
    } catch (error) {
      return Promise.resolve(this.renderError(error, request))
    }
    if (result instanceof Response) return Promise.resolve(result)
    return result.then(undefined, (error: unknown) => this.renderError(error, request))
  }

  /** Matches the request to a route and runs the route's pipeline: the innermost step of every request. */
  private route(request: Request): Response | Promise<Response> {
    const method = request.method()
    const match = this.tree.find(request.uri(), method)
    if (!match) throw new HttpError(404, 'Not Found')
    const { endpoint, values } = match
    const route = endpoint.routes.get(method) ?? (method === 'HEAD' ? endpoint.routes.get('GET') : undefined)
    if (!route) {
      if (method === 'OPTIONS') return new Response('', 204, { Allow: endpoint.allow })
      throw new HttpError(405, 'Method Not Allowed', { headers: { Allow: endpoint.allow } })
    }
    if (values.length > 0) {
      const params: Record<string, string> = {}
      for (let i = 0; i < values.length; i++) params[route.paramNames[i]!] = values[i]!
      request.params = params
    }
    let pipeline = this.pipelines.get(route)
    if (!pipeline) this.pipelines.set(route, (pipeline = this.buildRoutePipeline(route)))
    // An optional parameter that is absent is simply missing from `values`: the handler gets undefined, as in Laravel.
    return pipeline(request, values)
  }

  private addRoute<T>(methods: readonly string[], pattern: string, handler: RouteHandler<T>): RouteDefinition {
    const upper = methods.map((method) => method.toUpperCase())
    const fullPattern = joinPaths([...this.groups.map((group) => group.prefix ?? ''), pattern])
    checkHandler(fullPattern, handler as RouteHandler)
    const optional = /\{([A-Za-z_][A-Za-z0-9_]*)\?\}$/.exec(fullPattern)
    const required = optional ? fullPattern.replace(/\?\}$/, '}') : fullPattern
    const paramNames = RouteTree.parameterNames(required)
    const middleware = this.groups.flatMap((group) => group.middleware ?? [])
    const namePrefix = this.groups.map((group) => group.as ?? '').join('')
    const route = new RouteDefinition(upper, fullPattern, handler as RouteHandler, paramNames, middleware, {
      nameRoute: (name, definition) => this.named.set(namePrefix + name, definition),
    })
    for (const method of upper) {
      this.tree.add(method, required, route)
      if (optional) this.tree.add(method, required.slice(0, optional.index).replace(/\/$/, '') || '/', route)
    }
    this.definitions.push(route)
    return route
  }

  private resolveMiddleware(reference: MiddlewareReference): Middleware {
    if (typeof reference === 'function') return reference
    const middleware = this.aliases.get(reference)
    if (!middleware) throw new Error(`Middleware "${reference}" is not registered; use router.aliasMiddleware("${reference}", fn)`)
    return middleware
  }

  private buildAppPipeline(): Pipeline {
    const core: Pipeline = (request) => this.route(request)
    return this.compose(this.globalMiddleware.map((reference) => this.resolveMiddleware(reference)), core, 'global middleware')
  }

  /**
   * Wraps the core in middleware, outermost first. As in Laravel's pipeline, a failure inside a layer
   * is rendered into its error response right there, so the layers outside it (CORS, logging) still
   * see a Response for a 404 or a 500.
   */
  private compose(middleware: Middleware[], core: Pipeline, source: RouteDefinition | string): Pipeline {
    if (middleware.length === 0) return core
    const guarded = (request: Request, values: readonly string[]) => this.answer(core, request, values)
    return middleware.reduceRight<(request: Request, values: readonly string[]) => Promise<Response>>(
      (next, layer) => async (request, values) => {
        try {
          return toResponse(await layer(request, () => next(request, values)), source)
        } catch (error) {
          return this.renderError(error, request)
        }
      },
      guarded,
    )
  }

  private buildRoutePipeline(route: RouteDefinition): Pipeline {
    const middleware = route.middlewareList.map((reference) => this.resolveMiddleware(reference))
    const handler = route.handler
    let core: Pipeline
    if (typeof handler === 'function') {
      core = (request, values) => settle(handler(request, ...values), route)
    } else {
      const [Controller, method] = handler
      // The method is found once, here: looked up by name per request, from code shared by every route, it
      // would be a megamorphic property access once an application has a few controllers.
      const action = (Controller.prototype as Record<string, (...args: unknown[]) => unknown>)[method]!
      core = (request, values) => {
        const controller = new Controller(requestCradle(this.container, request))
        return settle(action.call(controller, request, ...values), route)
      }
    }
    return this.compose(middleware, core, route)
  }

  /** An HttpError as its status; anything else as a 500, logged. A browser gets a page, any other client JSON. */
  private renderError(error: unknown, request: Request): Response {
    const page = wantsPage(request)
    if (error instanceof HttpError) {
      if (!page) return error.toResponse()
      const response = Response.html(errorPage(error.status, error.message), error.status)
      for (const [key, value] of Object.entries(error.headers)) response.setHeader(key, value)
      return response
    }
    const detail = error instanceof Error ? error : new Error(String(error))
    this.logger.error({ method: request.method(), path: request.uri(), error: detail }, `${request.method()} ${request.uri()} failed:`)
    if (page) return Response.html(this.debug ? debugPage(detail, request) : errorPage(500, 'Internal Server Error'), 500)
    if (!this.debug) return Response.error('Internal Server Error', 500)
    return Response.json({ error: detail.message, exception: detail.name, stack: detail.stack?.split('\n').map((line) => line.trim()) }, 500)
  }
}

/** Whether the client is a browser asking for a page: an Accept that names HTML and no JSON. */
function wantsPage(request: Request): boolean {
  const accept = request.header('accept')
  return accept !== null && accept.includes('text/html') && !accept.includes('json')
}

/**
 * What a controller's constructor receives: the cradle of a request scope holding `request`, as
 * `container.createScope().instance('request', request).make(Controller)` would pass it, except that the
 * scope is only created when the constructor (or a method later) reads from it. A controller without
 * dependencies, the common case, costs no awilix scope per request.
 */
function requestCradle(container: Container, request: Request): object {
  return new Proxy<LazyCradle>({ container, request, cradle: undefined }, lazyCradleTraps)
}

interface LazyCradle {
  readonly container: Container
  readonly request: Request
  cradle: object | undefined
}

function openCradle(lazy: LazyCradle): object {
  return (lazy.cradle ??= lazy.container.createScope().instance('request', lazy.request).awilix.cradle)
}

/** Shared by every request's proxy, so that a request allocates only the proxy and its small target. */
const lazyCradleTraps: ProxyHandler<LazyCradle> = {
  get: (lazy, key) => Reflect.get(openCradle(lazy), key),
  has: (lazy, key) => Reflect.has(openCradle(lazy), key),
  set: (lazy, key, value) => Reflect.set(openCradle(lazy), key, value),
  ownKeys: (lazy) => Reflect.ownKeys(openCradle(lazy)),
  getOwnPropertyDescriptor: (lazy, key) => Reflect.getOwnPropertyDescriptor(openCradle(lazy), key),
}

/**
 * What a handler returned, as a Response: at once when it answered synchronously (most do), else a
 * promise of it.
 */
function settle(result: unknown, route: RouteDefinition): Response | Promise<Response> {
  if (result instanceof Response) return result
  if (typeof (result as PromiseLike<unknown> | null)?.then === 'function') {
    return Promise.resolve(result).then((value) => toResponse(value, route))
  }
  return toResponse(result, route)
}

function toResponse(result: unknown, source: RouteDefinition | string): Response {
  if (result instanceof Response) return result
  if (isPlainResult(result)) return Response.json(result)
  throw new Error(`${String(source)} returned ${describe(result)}; a handler must return a Response or a plain object`)
}

function checkHandler(pattern: string, handler: RouteHandler): void {
  if (typeof handler === 'function') return
  if (Array.isArray(handler) && handler.length === 2 && typeof handler[0] === 'function' && typeof handler[1] === 'string') {
    const [Controller, method] = handler
    if (typeof Controller.prototype?.[method] !== 'function') {
      throw new Error(`Route "${pattern}": ${Controller.name} has no method "${method}"`)
    }
    return
  }
  throw new TypeError(`Route "${pattern}": a handler is a function or [Controller, 'method']`)
}

function resolveRoutesFile(path: string | URL): string {
  const file = path instanceof URL || path.startsWith('file:') ? fileURLToPath(path) : isAbsolute(path) ? path : resolve(path)
  if (existsSync(file)) return file
  const swapped = file.endsWith('.ts') ? `${file.slice(0, -3)}.js` : file.endsWith('.js') ? `${file.slice(0, -3)}.ts` : file
  if (swapped !== file && existsSync(swapped)) return swapped
  throw new Error(`Routes file not found: ${file}`)
}
