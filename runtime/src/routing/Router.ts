import { pathToFileURL } from 'node:url'
import { ensureEmailVerified } from '../auth/emailVerification.js'
import { authorizeRoute } from '../authorization/authorizeRoute.js'
import { appRoot } from '../config/appRoot.js'
import { isProduction } from '../config/environment.js'
import { Container } from '../container/Container.js'
import { HttpError } from '../http/HttpError.js'
import type { Request } from '../http/Request.js'
import { Response } from '../http/Response.js'
import { createLogger, type Logger } from '../log/Logger.js'
import { requestLog } from '../log/requestLog.js'
import { mailPreview } from '../mail/mailPreview.js'
import { docsPage } from '../openapi/docsPage.js'
import { openApiEnabled, openApiPage } from '../openapi/openApiPage.js'
import { isHtml, pageHeaders, type PageHeaders, type SecureHeadersOptions } from '../middleware/secureHeaders.js'
import { throttle } from '../middleware/throttle.js'
import { startSession } from '../session/startSession.js'
import { verifyCsrfToken } from '../session/verifyCsrfToken.js'
import { serveStatic, type StaticOptions } from '../static/serveStatic.js'
import { signedLocalFiles } from '../storage/signedLocalFiles.js'
import { AnswerDeadlines, type PendingAnswer } from './AnswerDeadlines.js'
import { checkParams } from './checkParams.js'
import { checkHandler, compose, handlerStep, type Pipeline } from './compilePipeline.js'
import { DomainPattern } from './DomainPattern.js'
import { isPathPattern, PathScope } from './PathScope.js'
import { renderError, type ErrorHandler } from './renderError.js'
import { resourceActions, type ResourceOptions } from './resourceActions.js'
import { resolveRoutesFile } from './resolveRoutesFile.js'
import { bindModels } from './RouteBindings.js'
import { bindRoute } from './Route.js'
import {
  RouteDefinition,
  type DomainGroup,
  type GroupOptions,
  type Middleware,
  type MiddlewareReference,
  type RouteHandler,
} from './RouteDefinition.js'
import { keyedPattern, namesOf, parsePattern } from './routePattern.js'
import { RouteTree, type RouteMatch } from './RouteTree.js'
import { routeOrigin, routeUrl, type UrlParams } from './routeUrl.js'
import { UrlSigner } from './UrlSigner.js'
import { verifySignature } from './verifySignature.js'

export type { DomainGroup, GroupOptions } from './RouteDefinition.js'

export interface RouterOptions {
  /**
   * Put the error message and stack in 500 bodies. Defaults to `APP_DEBUG=true` in the environment;
   * always off in production (`NODE_ENV` or `APP_ENV` = production).
   */
  debug?: boolean
  /** Milliseconds a handler (with its middleware) has to answer before the client gets 503. Defaults to `HANDLER_TIMEOUT_MS`, else 30 000; 0 turns it off. */
  handlerTimeout?: number
  /** Where errors (always) and requests (with `LOG_REQUESTS=true`) are logged: JSON lines in production, short lines otherwise. */
  logger?: Logger
}

const NO_VALUES: readonly string[] = []

const ALL_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const

const DEFAULT_HANDLER_TIMEOUT = 30_000

/** One `router.use` registration: the middleware, and the paths it is for (undefined: every path). */
interface GlobalEntry {
  readonly middleware: MiddlewareReference
  readonly scope: PathScope | undefined
}

/** The routes of one domain pattern (of one shape: `{account}.example.com` and `{team}.example.com` share it). */
interface DomainRoutes {
  readonly domain: DomainPattern
  readonly tree: RouteTree
}

/** A `router.use(path, …)` registration, as `getPathMiddleware()` lists it. */
export interface PathMiddleware {
  /** The pattern as given: `/api/*`. */
  readonly path: string
  readonly middleware: MiddlewareReference
}

function joinPaths(parts: string[]): string {
  return `/${parts.map((part) => part.replace(/^\/+|\/+$/g, '')).filter(Boolean).join('/')}`
}

function handlerTimeout(option: number | undefined): number {
  const value = option ?? (process.env.HANDLER_TIMEOUT_MS ? Number(process.env.HANDLER_TIMEOUT_MS) : DEFAULT_HANDLER_TIMEOUT)
  if (!Number.isFinite(value) || value < 0) throw new Error(`Invalid handler timeout "${value}": use a number of milliseconds, 0 to turn it off`)
  return value
}

/**
 * Holds the routes and answers requests: finds the route, runs its middleware and handler,
 * and turns every failure into the right error response.
 *
 * Routes are compiled once: `loadRoutesFromFile` resolves middleware aliases and builds every route's
 * pipeline (a mistake fails there, at startup), and the first `dispatch` freezes the router.
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
  /** Milliseconds before a request that has not answered gets 503 (0: never). */
  readonly handlerTimeout: number
  /** The handler timeout of the requests in flight, on one timer; null when it is off. */
  private readonly deadlines: AnswerDeadlines | null

  private readonly logger: Logger
  private readonly tree = new RouteTree()
  /** The routes of each domain, fewest parameters first; null (the common case) until a route has a domain. */
  private domains: DomainRoutes[] | null = null
  private readonly definitions: RouteDefinition[] = []
  /**
   * Routes not in their tree yet: they go in when the routes compile, once their `where` patterns are known, since
   * those decide where a segment like `{foo}-{bar}` splits (see `compileSegment`).
   */
  private unplaced: { tree: RouteTree; route: RouteDefinition }[] = []
  private readonly named = new Map<string, RouteDefinition>()
  /** Every `router.use`, in the order added; path-scoped ones in their place among the others. */
  private readonly globalMiddleware: GlobalEntry[] = []
  private readonly aliases = new Map<string, Middleware>()
  /** The aliases that take arguments (`can:update,post`), by name: each makes the middleware for its arguments. */
  private readonly aliasFactories = new Map<string, (...parameters: string[]) => Middleware>()
  private signer: UrlSigner | undefined
  private readonly groups: GroupOptions[] = []
  private fallbackRoute: RouteDefinition | undefined
  /** Serves the public folder's files to GET and HEAD requests no route takes; undefined when turned off. */
  private publicFolder: Middleware | undefined = serveStatic()
  /**
   * Fw's own pages, for paths no route takes: `/_fw/mail` outside production, `/openapi.json` outside production
   * and in production with `OPENAPI=true`. A request that a route answers never reaches them.
   */
  private readonly developmentPages: Middleware[] = [
    ...(isProduction() ? [] : [mailPreview()]),
    ...(openApiEnabled() ? [openApiPage(() => this.definitions), docsPage()] : []),
  ]
  /** The local disk's signed links (`storage().signedUrl()`), for paths no route takes. */
  private readonly signedFiles: Middleware = signedLocalFiles()
  private errorHook: ErrorHandler | undefined
  /** What every HTML response gets (framing, sniffing, referrer rules); undefined when the application turned it off. */
  private addPageHeaders: PageHeaders | undefined = pageHeaders()
  /** The global middleware, resolved, path-scoped ones behind a check of the path; undefined until compiled. */
  private globalLayers: Middleware[] | undefined
  /** The fallback route, or a 404, inside the global middleware. */
  private notFound: Pipeline | undefined
  private frozen = false

  constructor(container: Container = Container.getInstance(), options: RouterOptions = {}) {
    this.container = container
    this.debug = !isProduction() && (options.debug ?? process.env.APP_DEBUG === 'true')
    this.handlerTimeout = handlerTimeout(options.handlerTimeout)
    this.deadlines = this.handlerTimeout > 0 ? new AnswerDeadlines(this.handlerTimeout, (pending) => this.timedOut(pending)) : null
    this.logger = options.logger ?? createLogger()
    // Ready for any route to name: `.middleware('session', 'csrf')`, `.middleware('signed')`, `.middleware(auth, 'verified')`.
    this.aliases.set('session', startSession()).set('csrf', verifyCsrfToken()).set('signed', verifySignature())
    this.aliases.set('verified', ensureEmailVerified((name) => (this.named.has(name) ? this.url(name) : undefined)))
    // Aliases that take their arguments: `can:update,post`, `throttle:api`, `throttle:60,1`.
    this.aliasFactories.set('can', authorizeRoute)
    this.aliasFactories.set('throttle', (limit, decayMinutes) => throttle(limit!, decayMinutes))
    // Outermost, so that its time and status cover everything; absent unless asked for, so it costs nothing then.
    if (process.env.LOG_REQUESTS === 'true') this.globalMiddleware.push({ middleware: requestLog(this.logger), scope: undefined })
  }

  get<T, P extends unknown[] = string[]>(pattern: string, handler: RouteHandler<T, P>): RouteDefinition {
    return this.addRoute(['GET'], pattern, handler)
  }

  post<T, P extends unknown[] = string[]>(pattern: string, handler: RouteHandler<T, P>): RouteDefinition {
    return this.addRoute(['POST'], pattern, handler)
  }

  put<T, P extends unknown[] = string[]>(pattern: string, handler: RouteHandler<T, P>): RouteDefinition {
    return this.addRoute(['PUT'], pattern, handler)
  }

  patch<T, P extends unknown[] = string[]>(pattern: string, handler: RouteHandler<T, P>): RouteDefinition {
    return this.addRoute(['PATCH'], pattern, handler)
  }

  delete<T, P extends unknown[] = string[]>(pattern: string, handler: RouteHandler<T, P>): RouteDefinition {
    return this.addRoute(['DELETE'], pattern, handler)
  }

  options<T, P extends unknown[] = string[]>(pattern: string, handler: RouteHandler<T, P>): RouteDefinition {
    return this.addRoute(['OPTIONS'], pattern, handler)
  }

  /** A route for every method (GET, POST, PUT, PATCH, DELETE, OPTIONS; HEAD follows GET). */
  any<T, P extends unknown[] = string[]>(pattern: string, handler: RouteHandler<T, P>): RouteDefinition {
    return this.addRoute(ALL_METHODS, pattern, handler)
  }

  /** A route for the listed methods: `router.match(['GET', 'POST'], '/form', handler)`. */
  match<T, P extends unknown[] = string[]>(methods: readonly string[], pattern: string, handler: RouteHandler<T, P>): RouteDefinition {
    return this.addRoute(methods, pattern, handler)
  }

  /**
   * The routes of a resource controller, with Laravel's action names: index, create, store, show,
   * edit, update (PUT and PATCH) and destroy, named `photos.index` and so on. Every action must
   * exist on the controller; `only`/`except` choose, `where` constrains the parameter (a path whose
   * parameter does not match is not found: 404), `bind` binds it to a model (the item routes get the row).
   *
   * @example
   * ```ts
   * router.resource('photos', PhotoController) // GET /photos, GET /photos/{photo}/edit, …
   * router.apiResource('posts', PostController, { where: { post: /\d+/ } }) // GET /posts/abc: 404
   * router.apiResource('posts', PostController, { bind: Post })             // show(request, post) gets the row
   * ```
   */
  resource<T>(name: string, Controller: new (...args: any[]) => T, options: ResourceOptions = {}): RouteDefinition[] {
    return this.addResource(name, Controller, options, false)
  }

  /** `resource` without the HTML forms' `create` and `edit`. */
  apiResource<T>(name: string, Controller: new (...args: any[]) => T, options: ResourceOptions = {}): RouteDefinition[] {
    return this.addResource(name, Controller, options, true)
  }

  private addResource<T>(name: string, Controller: new (...args: any[]) => T, options: ResourceOptions, api: boolean): RouteDefinition[] {
    return resourceActions(name, options, api).map(({ methods, path, action, routeName, parameter }) => {
      const route = this.addRoute(methods, path, [Controller, action] as unknown as RouteHandler<T>).name(routeName)
      for (const [constrained, pattern] of Object.entries(options.where ?? {})) {
        if (route.paramNames.includes(constrained)) route.where(constrained, pattern)
      }
      if (options.bind && parameter !== undefined) route.bind(parameter, options.bind)
      return route
    })
  }

  /**
   * What answers a path that no route matches, instead of the 404 (any method). It runs inside the
   * global middleware.
   *
   * @example
   * ```ts
   * router.fallback(() => Response.html(notFoundPage, 404))
   * ```
   */
  fallback<T>(handler: RouteHandler<T>): RouteDefinition {
    this.assertOpen('a fallback route')
    checkHandler('fallback', handler as RouteHandler)
    this.fallbackRoute = new RouteDefinition(['ANY'], '{fallback}', handler as RouteHandler, [], [], this)
    this.globalLayers = undefined
    return this.fallbackRoute
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

  /**
   * Routes that answer only on a host of the pattern (the Host header without its port): its parameters, one whole
   * label each (`{account}`) or text and parameters (`{account}-eu`), come before the path's, for the handler,
   * `request.param()` and `where`. A domain route wins over a route without a domain at the same path; on another
   * host it is not there. `router.url()` of a domain route is an absolute URL. The same as
   * `router.group({ domain }, routes)`.
   *
   * @example
   * ```ts
   * router.domain('{account}.example.com').group(() => {
   *   router.get('/users/{id}', (request: Request, account: string, id: string) => ({ account, id })).where('account', /[a-z]+/)
   * })
   * ```
   */
  domain(pattern: string): DomainGroup {
    new DomainPattern(pattern) // a malformed pattern throws here, at the call that gives it
    return { group: (routes) => this.group({ domain: pattern }, routes) }
  }

  /**
   * Adds middleware that runs for every request, in the order added, around route middleware. Given a path pattern
   * first (as Hono's `app.use('/api/*', cors())`, or the `paths` of Laravel's CORS), it runs, in its place among the
   * others, for the requests whose path matches it: routes, 404s, 405s and OPTIONS answers alike. `/api/*` is `/api`
   * and every path below it, `/health` that path alone, `/*` every path; an unsupported pattern throws here.
   * Whether a route is inside is decided once, when the routes compile: a request pays for the check only on a route
   * whose parameter stands where the pattern names a segment (`/{locale}/items` against `/api/*`).
   *
   * @example
   * ```ts
   * router.use(requestTiming)
   * router.use('/api/*', cors({ origin: ['https://app.example.com'] }))
   * ```
   */
  use(path: `/${string}`, ...middleware: MiddlewareReference[]): this
  use(...middleware: MiddlewareReference[]): this
  use(...args: MiddlewareReference[]): this {
    this.assertOpen('global middleware')
    const scope = isPathPattern(args[0]) ? new PathScope(args.shift() as string) : undefined
    if (scope && args.length === 0) throw new Error(`router.use("${scope.pattern}") needs the middleware to run for those paths`)
    for (const middleware of args) this.globalMiddleware.push({ middleware, scope })
    this.invalidate()
    return this
  }

  /** Names a middleware so that routes can refer to it by a string: `.middleware('auth')`. */
  aliasMiddleware(name: string, middleware: Middleware): this {
    this.assertOpen(`the middleware alias "${name}"`)
    if (isPathPattern(name)) throw new Error(`Middleware alias "${name}": a name with "/" at its start or a "*" would read as a path in router.use`)
    this.aliases.set(name, middleware)
    this.invalidate()
    return this
  }

  /**
   * Names a middleware that takes arguments, as Laravel's `can:update,post`: a route's `'<name>:<a>,<b>'` gets the
   * middleware that `make(a, b)` returns, made once per distinct reference when the routes compile.
   *
   * @example
   * ```ts
   * router.aliasMiddlewareFactory('role', (...roles) => requireRole(roles))
   * Route.get('/admin', handler).middleware(auth, 'role:admin,editor')
   * ```
   */
  aliasMiddlewareFactory(name: string, make: (...parameters: string[]) => Middleware): this {
    this.assertOpen(`the middleware alias "${name}"`)
    if (name.includes(':') || isPathPattern(name)) throw new Error(`Middleware alias "${name}": a name with ":" (or read as a path) cannot take arguments`)
    this.aliasFactories.set(name, make)
    this.invalidate()
    return this
  }

  /**
   * The application's error hook: it sees every failure (HttpErrors included) and returns the Response
   * to send, or undefined for the default: `{"error": message}` with the HttpError's status, else a
   * logged 500 (with the stack only when `debug` is on, never in production).
   *
   * @example
   * ```ts
   * router.onError((error, request) => {
   *   if (error instanceof PaymentDeclined) return Response.error(error.message, 402)
   * })
   * ```
   */
  onError(handler: ErrorHandler): this {
    this.errorHook = handler
    return this
  }

  /**
   * The folder whose files answer GET and HEAD requests that no route takes: the application's `public/` by
   * default, so `public/css/app.css` is `GET /css/app.css`, with the rules of `serveStatic` (Content-Type,
   * ETag and 304, Range; never a TypeScript source, a dotfile or a path outside the folder). Routes come
   * first, and cost nothing more for it; a path with no file goes on to the fallback route or 404.
   *
   * @example
   * ```ts
   * router.publicFiles(new URL('../assets', import.meta.url), { cacheControl: 'public, max-age=3600' })
   * router.publicFiles(false)   // serve no files
   * ```
   */
  publicFiles(folder: string | URL | false, options: StaticOptions = {}): this {
    this.assertOpen('the public files')
    this.publicFolder = folder === false ? undefined : serveStatic(folder, options)
    this.invalidate()
    return this
  }

  /**
   * The security headers of every HTML response (error pages and static `.html` files included):
   * `X-Content-Type-Options: nosniff`, `Content-Security-Policy: frame-ancestors 'none'` with
   * `X-Frame-Options: DENY`, `Referrer-Policy: strict-origin-when-cross-origin`, and HSTS over https. They
   * are on by default; a header the response sets itself wins. JSON and other responses are left alone.
   *
   * @example
   * ```ts
   * router.secureHeaders({ frameAncestors: 'self' })   // pages may be framed by the same origin
   * router.secureHeaders(false)                        // none at all
   * ```
   */
  secureHeaders(options: SecureHeadersOptions | false): this {
    this.assertOpen('the secure headers')
    this.addPageHeaders = options === false ? undefined : pageHeaders(options)
    return this
  }

  /** Every registered route, in registration order (for `fw route:list`). */
  getRoutes(): readonly RouteDefinition[] {
    return this.definitions
  }

  /** The middleware that runs for every request (`router.use` without a path), in the order added, for listings. */
  getGlobalMiddleware(): readonly MiddlewareReference[] {
    return this.globalMiddleware.filter((entry) => entry.scope === undefined).map((entry) => entry.middleware)
  }

  /**
   * The path-scoped middleware (`router.use('/api/*', …)`) with its pattern, in the order added, for listings. Each
   * runs in its place among the global middleware, in the order of the `router.use` calls.
   */
  getPathMiddleware(): readonly PathMiddleware[] {
    return this.globalMiddleware.flatMap(({ middleware, scope }) => (scope ? [{ path: scope.pattern, middleware }] : []))
  }

  /**
   * The path of a named route, with its parameters filled in; other values go into the query string.
   * Every part is percent-encoded, so the result can go into a `Location` header as it is.
   *
   * @example
   * ```ts
   * router.url('users.show', { id: 5 }) // '/users/5'
   * ```
   */
  url(name: string, params: UrlParams = {}): string {
    const route = this.namedRoute(name)
    return (routeOrigin(route, params) ?? '') + routeUrl(route, params)
  }

  private namedRoute(name: string): RouteDefinition {
    const route = this.named.get(name)
    if (!route) throw new Error(`No route is named "${name}"`)
    return route
  }

  /**
   * The absolute link of a named route, signed with `APP_KEY` (HMAC-SHA256), for a route with the `signed`
   * middleware: a link in a mail that must not be forged or changed. With `expiresIn` (seconds) the link expires,
   * the expiry being signed too. It is built on `APP_URL`, never on the Host header of the request being answered.
   *
   * @example
   * ```ts
   * router.signedUrl('unsubscribe', { user: 5 }, { expiresIn: 3600 })
   * // 'https://example.com/unsubscribe/5?expires=1767225600&signature=3f…'
   * ```
   */
  signedUrl(name: string, params: UrlParams = {}, options: { expiresIn?: number } = {}): string {
    const { expiresIn } = options
    if (expiresIn !== undefined && !(Number.isFinite(expiresIn) && expiresIn > 0)) {
      throw new TypeError(`signedUrl(): expiresIn is a number of seconds above 0, got ${String(expiresIn)}`)
    }
    for (const reserved of ['expires', 'signature']) {
      if (reserved in params) throw new TypeError(`signedUrl(): "${reserved}" is the signature's own parameter; name yours otherwise`)
    }
    const route = this.namedRoute(name)
    const base = routeOrigin(route, params) ?? appUrl('signed links')
    this.signer ??= UrlSigner.fromEnvironment()
    const expiresAt = expiresIn === undefined ? undefined : Date.now() / 1000 + expiresIn
    return base + this.signer.sign(routeUrl(route, params), expiresAt)
  }

  /**
   * The absolute link of a named route, built on `APP_URL` (never on the Host header of the request being answered,
   * which a client chooses): for a link in a mail, such as a password reset link that carries its own secret.
   *
   * @example
   * ```ts
   * router.absoluteUrl('password.reset', { token, email: 'ada@example.com' })
   * // 'https://example.com/reset-password/Zx…?email=ada%40example.com'
   * ```
   */
  absoluteUrl(name: string, params: UrlParams = {}): string {
    const route = this.namedRoute(name)
    return (routeOrigin(route, params) ?? appUrl('links in mail')) + routeUrl(route, params)
  }

  /**
   * Imports a routes file whose `Route.*` calls register on this router (the application's: the
   * `Route` facade is bound to the first router that loads routes), then compiles the routes, so that
   * an unknown middleware alias fails here, at startup. A `.ts` path falls back to the compiled `.js`
   * beside it (and the other way round). A routes file may import others (`import './auth.js'`).
   */
  async loadRoutesFromFile(path: string | URL): Promise<void> {
    const file = resolveRoutesFile(path)
    await this.loadRoutes(() => import(pathToFileURL(file).href))
  }

  /**
   * Runs an import (or any loader) whose `Route.*` calls register on this router, then compiles the routes:
   * for code that imports the routes itself, such as a test that vitest transforms.
   *
   * @example
   * ```ts
   * await router.loadRoutes(() => import('../routes/web.js'))
   * ```
   */
  async loadRoutes(load: () => Promise<unknown>): Promise<void> {
    bindRoute(this)
    await load()
    this.compile()
    // The development server keeps .fw/api.d.ts in step with the routes, after the app has started listening.
    if (process.env.FW_API_TYPES === 'write') {
      setImmediate(() => void import('../openapi/apiTypes.js').then(({ refreshApiTypes }) => refreshApiTypes(this.definitions, appRoot())))
    }
  }

  /**
   * Compiles what is not compiled yet (middleware aliases resolved, every route's pipeline built) and
   * freezes the router: a route, middleware or alias added afterwards throws. `dispatch` calls it
   * on the first request; calling it before serving moves every mistake to startup.
   */
  commit(): this {
    this.compile()
    this.frozen = true
    return this
  }

  /**
   * Answers a request, and _never_ throws: the body's error (413, 400) first; then the route's
   * pipeline (global, group and route middleware around the handler) for a path that matches;
   * else 404, 405 with `Allow`, or 204 for OPTIONS, through the global middleware (a CORS preflight's 204
   * through the middleware of the route it asks about). Any failure goes to the error hook; a request
   * that has not answered after `handlerTimeout` gets 503.
   */
  dispatch(request: Request): Promise<Response> {
    let result: Response | Promise<Response>
    try {
      if (!this.frozen) this.commit()
      if (request.bodyError) throw request.bodyError
      const method = request.method()
      let match: RouteMatch | null
      try {
        // Only an application with domain routes reads the host.
        match = this.domains === null ? this.tree.find(request.uri(), method) : this.findOnHost(request, method)
      } catch (error) {
        // A malformed path (400) still goes through the global middleware, as a 404 does.
        return this.answer(this.throughGlobal(request, () => Promise.reject(error)), request)
      }
      const route = match && this.routeFor(match, method)
      if (!route) {
        result = this.unmatched(request, match)
      } else {
        request.matched = route
        request.params = paramsOf(route, match!.values)
        // Most handlers answer synchronously: their Response skips the promise and the timer below.
        result = route.pipeline!(request, match!.values)
      }
    } catch (error) {
      return Promise.resolve(this.failed(error, request))
    }
    return this.answer(result, request)
  }

  private answer(result: Response | Promise<Response>, request: Request): Promise<Response> {
    if (result instanceof Response) return Promise.resolve(this.finish(result, request))
    return this.awaitAnswer(result, request)
  }

  /**
   * The last touch before a response leaves, once for every answer: the request's id in `X-Request-Id` (unless the
   * response set its own), and an HTML page gets the secure headers.
   */
  private finish(response: Response, request: Request): Response {
    // request.id() is a safe sent id or a UUID: no CR or LF, nothing for setHeader to check on every answer.
    response.addHeaderIfAbsent('X-Request-Id', 'x-request-id', request.id())
    if (this.addPageHeaders !== undefined && isHtml(response)) this.addPageHeaders(response, request)
    return response
  }

  /**
   * The match of a request in an application with domain routes: the routes of the domains its host matches, in
   * order, fewest parameters first (`admin.example.com` before `{account}.example.com`), then the routes without a
   * domain. A domain's values come before the path's. The first match with a route for the method whose constraints
   * accept the values wins; else the first match at all, for the 405 or 404.
   */
  private findOnHost(request: Request, method: string): RouteMatch | null {
    const path = request.uri()
    const host = request.host()
    let first: RouteMatch | null = null
    for (const { domain, tree } of this.domains!) {
      const hostValues = domain.match(host)
      if (hostValues === null) continue
      const found = tree.find(path, method)
      if (found === null) continue
      const match = { endpoint: found.endpoint, values: hostValues.concat(found.values) }
      if (this.routeFor(match, method)) return match
      first ??= match
    }
    const plain = this.tree.find(path, method)
    if (first === null || (plain !== null && this.routeFor(plain, method))) return plain
    return first
  }

  /** The route for the method at a matched path, if its constraints accept the values. */
  private routeFor(match: RouteMatch, method: string): RouteDefinition | undefined {
    const routes = match.endpoint.routes
    const route = routes.get(method) ?? (method === 'HEAD' ? routes.get('GET') : undefined)
    if (route?.constraints && !route.accepts(match.values)) return undefined
    return route
  }

  /** Waits for an asynchronous answer, rendering a rejection, and answers 503 when `handlerTimeout` passes first. */
  private awaitAnswer(result: Promise<Response>, request: Request): Promise<Response> {
    const deadlines = this.deadlines
    if (deadlines === null) return result.then((response) => this.finish(response, request), (error: unknown) => this.failed(error, request))
    return new Promise((resolve) => {
      const pending = deadlines.add(request, resolve)
      result.then(
        (response) => {
          if (deadlines.remove(pending)) resolve(this.finish(response, request))
        },
        (error: unknown) => {
          if (deadlines.remove(pending)) resolve(this.failed(error, request))
        },
      )
    })
  }

  /** A request whose handler did not answer within `handlerTimeout`: logged, and answered 503. */
  private timedOut({ request, resolve }: PendingAnswer): void {
    const route = request.route()
    this.logger.error(
      `[fw] ${request.method()} ${request.uri()}${route ? ` (route ${route})` : ''} did not answer within ${this.handlerTimeout} ms: answered 503`,
      { requestId: request.id() },
    )
    resolve(this.failed(new HttpError(503, 'Service Unavailable'), request))
  }

  /** The error response of a failure, finished as every response is. */
  private failed(error: unknown, request: Request): Response {
    return this.finish(this.renderError(error, request), request)
  }

  /** The error hook's Response, else the default one. */
  private renderError(error: unknown, request: Request): Response {
    if (this.errorHook) {
      try {
        const response = this.errorHook(error, request)
        if (response instanceof Response) return response
      } catch (hookError) {
        this.logger.error('[fw] the onError hook failed:', hookError, { requestId: request.id() })
      }
    }
    return renderError(error, request, this.debug, this.logger)
  }

  private readonly render = (error: unknown, request: Request): Response => this.renderError(error, request)

  /** Builds the pipelines that are missing. Throws on an unknown middleware alias, naming it. */
  private compile(): void {
    for (const { tree, route } of this.unplaced) for (const method of route.methods) tree.add(method, route.pattern, route)
    this.unplaced = []
    const global = this.globalMiddleware.map(({ middleware, scope }) => ({ layer: this.resolveMiddleware(middleware), scope }))
    for (const route of this.definitions) {
      if (route.pipeline) continue
      const layers: Middleware[] = []
      for (const { layer, scope } of global) {
        // Placed once, here: in the pipeline or not, and checked per request only where a parameter decides.
        const routeLayer = scope ? scope.layerFor(route, layer) : layer
        if (routeLayer) layers.push(routeLayer)
      }
      for (const reference of route.middlewareList) layers.push(this.resolveMiddleware(reference))
      route.layers = layers
      let handler = handlerStep(route, this.container)
      let around: readonly Middleware[] = layers
      // Route model binding: the handler gets the rows; an authorization middleware may need them loaded before it.
      if (route.bindings ?? route.bindingFields) ({ layers: around, handler } = bindModels(route, layers, handler))
      const checked = route.declared?.params ? checkParams(route, handler) : handler
      route.pipeline = compose(around, route.defaultValues ? withDefaults(route, checked) : checked, route, this.render)
    }
    if (this.globalLayers) return
    this.globalLayers = global.map(({ layer, scope }) => (scope ? scope.layerForPaths(layer) : layer))
    const fallback = this.fallbackRoute
    const notFound: Pipeline = fallback
      ? handlerStep(fallback, this.container)
      : () => {
          throw new HttpError(404, 'Not Found')
        }
    const layers = [...this.globalLayers, ...this.developmentPages, ...(this.publicFolder ? [this.publicFolder] : []), this.signedFiles]
    this.notFound = compose(layers, notFound, fallback ?? 'global middleware', this.render)
  }

  /**
   * The answer when no route takes the request, through the global middleware: the fallback route or
   * 404 for an unknown path (or values a constraint refused), 204 for OPTIONS, else 405 with `Allow`.
   */
  private unmatched(request: Request, match: RouteMatch | null): Response | Promise<Response> {
    const method = request.method()
    const routes = match?.endpoint.routes
    if (!routes || routes.has(method) || (method === 'HEAD' && routes.has('GET'))) {
      return this.notFound!(request, NO_VALUES)
    }
    const allow = match.endpoint.allow
    if (method === 'OPTIONS') return this.answerOptions(request, match, () => new Response('', 204, { Allow: allow }))
    return this.throughGlobal(request, () => {
      throw new HttpError(405, 'Method Not Allowed', { headers: { Allow: allow } })
    })
  }

  /**
   * The 204 to an OPTIONS at a path without an OPTIONS route. A CORS preflight (`Access-Control-Request-Method`)
   * asks whether the route of that method may be called: its answer runs inside that route's middleware, global,
   * path-scoped, group and route, as the route's own request will, so that `cors()` on a group or a route answers
   * it. A plain OPTIONS asks about the path, not a route: it goes through the global middleware alone (path-scoped
   * ones by its path), as a 404 does.
   */
  private answerOptions(request: Request, match: RouteMatch, answer: Pipeline): Response | Promise<Response> {
    const asked = request.header('access-control-request-method')
    const route = asked === null ? undefined : this.routeFor(match, asked.toUpperCase())
    if (route === undefined) return this.throughGlobal(request, answer)
    request.matched = route
    request.params = paramsOf(route, match.values)
    return compose(route.layers!, answer, route, this.render)(request, match.values)
  }

  /** Runs one step inside the global middleware: for the rare answers that are not compiled ahead. */
  private throughGlobal(request: Request, step: Pipeline): Response | Promise<Response> {
    return compose(this.globalLayers!, step, 'global middleware', this.render)(request, NO_VALUES)
  }

  /** Drops the compiled pipelines after a change to the global middleware or the aliases. */
  private invalidate(): void {
    for (const route of this.definitions) route.pipeline = undefined
    this.globalLayers = undefined
  }

  /** @internal RouteDefinition reports its name here. */
  nameRoute(name: string, route: RouteDefinition): void {
    const full = route.namePrefix + name
    const existing = this.named.get(full)
    if (existing && existing !== route) {
      throw new Error(`Route with duplicate name found: "${full}" already names ${existing}; it cannot also name ${route}`)
    }
    this.named.set(full, route)
  }

  /** @internal Throws once the router is frozen. */
  assertOpen(change: string): void {
    if (this.frozen) throw new Error(`The routes are frozen once the router serves: add ${change} before the first request (in routes/ or bootstrap/app.ts)`)
  }

  private addRoute<T, P extends unknown[]>(methods: readonly string[], pattern: string, handler: RouteHandler<T, P>): RouteDefinition {
    this.assertOpen(`the route ${pattern}`)
    const upper = methods.map((method) => method.toUpperCase())
    const joined = joinPaths([...this.groups.map((group) => group.prefix ?? ''), pattern])
    // `{post:slug}` is `{post}` to everything but route model binding, which finds the post by its slug.
    const { pattern: fullPattern, fields } = keyedPattern(joined, `Route "${joined}"`)
    checkHandler(fullPattern, handler as RouteHandler)
    const domain = this.groups.findLast((group) => group.domain !== undefined)?.domain
    const host = domain === undefined ? undefined : new DomainPattern(domain)
    const paramNames = parsePattern(fullPattern, `Route "${fullPattern}"`).flatMap(namesOf)
    const shared = paramNames.find((name) => host?.names.includes(name))
    if (shared !== undefined) throw new Error(`Route "${fullPattern}": parameter {${shared}} is in its domain ${domain} and in its path`)
    const middleware = this.groups.flatMap((group) => group.middleware ?? [])
    const route = new RouteDefinition(upper, fullPattern, handler as RouteHandler, [...(host?.names ?? []), ...paramNames], middleware, this, domain)
    route.namePrefix = this.groups.map((group) => group.as ?? '').join('')
    route.bindingFields = fields
    if (this.groups.some((group) => group.excludeFromDocs)) route.excludeFromDocs()
    const tree = host ? this.domainTree(host) : this.tree
    this.unplaced.push({ tree, route })
    this.definitions.push(route)
    return route
  }

  /** The tree of a domain's routes, made on its first route; the domains stay in order, fewest parameters first. */
  private domainTree(domain: DomainPattern): RouteTree {
    const existing = this.domains?.find((routes) => routes.domain.shape === domain.shape)
    if (existing) return existing.tree
    const routes = { domain, tree: new RouteTree() }
    this.domains = [...(this.domains ?? []), routes].sort((a, b) => a.domain.names.length - b.domain.names.length)
    return routes.tree
  }

  private resolveMiddleware(reference: MiddlewareReference): Middleware {
    if (typeof reference === 'function') return reference
    const middleware = this.aliases.get(reference) ?? this.madeMiddleware(reference)
    if (!middleware) throw new Error(`Middleware "${reference}" is not registered; use router.aliasMiddleware("${reference}", fn)`)
    return middleware
  }

  /** The middleware of a reference with arguments (`can:update,post`), made by its alias factory and kept; undefined when none. */
  private madeMiddleware(reference: string): Middleware | undefined {
    const colon = reference.indexOf(':')
    const make = colon > 0 ? this.aliasFactories.get(reference.slice(0, colon)) : undefined
    if (!make) return undefined
    const middleware = make(...reference.slice(colon + 1).split(',').map((part) => part.trim()))
    this.aliases.set(reference, middleware)
    return middleware
  }
}

/**
 * The prototype of every params object: empty and without a prototype of its own, so that
 * `params.constructor` is undefined. Objects made from it stay in V8's fast mode, which
 * `Object.create(null)` objects do not.
 */
const PARAMS: object = Object.freeze(Object.create(null))
const EMPTY_PARAMS: Readonly<Record<string, string>> = Object.freeze(Object.create(PARAMS) as Record<string, string>)

/** The parameters by name, own keys only. */
function paramsOf(route: RouteDefinition, values: readonly string[]): Record<string, string> {
  if (values.length === 0) return EMPTY_PARAMS
  const params = Object.create(PARAMS) as Record<string, string>
  for (let i = 0; i < values.length; i++) params[route.paramNames[i]!] = values[i]!
  return params
}

/**
 * The route's handler step (with its parameter checks) behind the values of its `.defaults()`: when the path left out
 * an optional parameter that has one, the checks, the handler and `request.param()` get the default instead. The
 * middleware before it see the parameters of the path as it is (a path-scoped `router.use` judges the path itself).
 * Only a route with defaults gets this step.
 */
function withDefaults(route: RouteDefinition, pipeline: Pipeline): Pipeline {
  const names = route.paramNames
  const defaults = route.defaultValues!
  return (request, values) => {
    if (values.length === names.length) return pipeline(request, values)
    // An absent parameter without a default stays undefined, for the handler as for request.param().
    const filled: (string | undefined)[] = values.slice()
    for (let i = values.length; i < names.length; i++) filled.push(defaults[names[i]!])
    while (filled.length > 0 && filled.at(-1) === undefined) filled.pop()
    const params = Object.create(PARAMS) as Record<string, string>
    for (let i = 0; i < filled.length; i++) if (filled[i] !== undefined) params[names[i]!] = filled[i]!
    request.params = params
    return pipeline(request, filled as string[])
  }
}

/** `APP_URL` without its trailing slash; an Error saying what to set when it is not an http(s) origin. */
function appUrl(what: string): string {
  const url = process.env.APP_URL?.replace(/\/+$/, '')
  if (!url || !/^https?:\/\/[^/?#]+$/.test(url)) {
    throw new Error(`APP_URL must be the application's address (APP_URL=https://example.com in .env) for ${what}, got ${JSON.stringify(process.env.APP_URL ?? '')}`)
  }
  return url
}
