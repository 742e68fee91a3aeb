import type { Constructor } from '../container/Container.js'
import type { Request } from '../http/Request.js'
import type { Response } from '../http/Response.js'

/** What a handler may return: a Response, or a plain object or array that becomes JSON. */
export type HandlerResult = Response | Record<string, unknown> | readonly unknown[]

/** A closure handler: the Request, then the route parameters in path order, as strings. */
export type RouteClosure = (request: Request, ...params: string[]) => HandlerResult | Promise<HandlerResult>

type MethodNames<T> = { [K in keyof T]: T[K] extends (...args: never[]) => unknown ? K : never }[keyof T] & string

/** `[UserController, 'show']`: the controller is built from the container for each request. */
export type ControllerAction<T = object> = readonly [Constructor<T>, MethodNames<T>]

export type RouteHandler<T = object> = RouteClosure | ControllerAction<T>

/** Calls the next middleware (or the handler) and resolves to its Response. */
export type Next = () => Promise<Response>

/**
 * A middleware runs around the handler: it may answer early, or call `next()` and change the response.
 *
 * @example
 * ```ts
 * const poweredBy: Middleware = async (request, next) => (await next()).setHeader('X-Powered-By', 'Fw')
 * ```
 */
export type Middleware = (request: Request, next: Next) => HandlerResult | Promise<HandlerResult>

/** A middleware function, or the name it was registered under with `router.aliasMiddleware`. */
export type MiddlewareReference = Middleware | string

/** The registry a route reports its name to, so that URLs can be generated from it. */
export interface RouteNames {
  nameRoute(name: string, route: RouteDefinition): void
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
  readonly pattern: string
  readonly handler: RouteHandler
  /** The parameter names in path order: `['user', 'post']` for `/users/{user}/posts/{post}`. */
  readonly paramNames: readonly string[]
  readonly middlewareList: MiddlewareReference[]
  routeName: string | undefined

  private readonly names: RouteNames

  constructor(
    methods: readonly string[],
    pattern: string,
    handler: RouteHandler,
    paramNames: readonly string[],
    middleware: MiddlewareReference[],
    names: RouteNames,
  ) {
    this.methods = methods
    this.pattern = pattern
    this.handler = handler
    this.paramNames = paramNames
    this.middlewareList = middleware
    this.names = names
  }

  /** Adds middleware that runs for this route only, after global and group middleware. */
  middleware(...middleware: MiddlewareReference[]): this {
    this.middlewareList.push(...middleware)
    return this
  }

  /** Names the route, for `router.url(name, params)`. */
  name(name: string): this {
    this.routeName = name
    this.names.nameRoute(name, this)
    return this
  }

  /** A readable description of the handler, e.g. `UserController@show` or `Closure`. */
  describeHandler(): string {
    if (typeof this.handler === 'function') return this.handler.name ? `Closure (${this.handler.name})` : 'Closure'
    return `${this.handler[0].name}@${this.handler[1]}`
  }

  /** `GET /users/{id}`: how the route is named in error messages and logs. */
  toString(): string {
    return `${this.methods.join('|')} ${this.pattern}`
  }
}
