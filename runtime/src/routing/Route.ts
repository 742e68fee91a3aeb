import type { ResourceOptions } from './resourceActions.js'
import type { DomainGroup, GroupOptions, RouteDefinition, RouteHandler } from './RouteDefinition.js'
import type { UrlParams } from './routeUrl.js'

/** What the facade needs of a router: its registration methods. */
interface RouteRegistrar {
  get<T, P extends unknown[] = string[]>(pattern: string, handler: RouteHandler<T, P>): RouteDefinition
  post<T, P extends unknown[] = string[]>(pattern: string, handler: RouteHandler<T, P>): RouteDefinition
  put<T, P extends unknown[] = string[]>(pattern: string, handler: RouteHandler<T, P>): RouteDefinition
  patch<T, P extends unknown[] = string[]>(pattern: string, handler: RouteHandler<T, P>): RouteDefinition
  delete<T, P extends unknown[] = string[]>(pattern: string, handler: RouteHandler<T, P>): RouteDefinition
  options<T, P extends unknown[] = string[]>(pattern: string, handler: RouteHandler<T, P>): RouteDefinition
  any<T, P extends unknown[] = string[]>(pattern: string, handler: RouteHandler<T, P>): RouteDefinition
  match<T, P extends unknown[] = string[]>(methods: readonly string[], pattern: string, handler: RouteHandler<T, P>): RouteDefinition
  resource<T>(name: string, Controller: new (...args: any[]) => T, options?: ResourceOptions): RouteDefinition[]
  apiResource<T>(name: string, Controller: new (...args: any[]) => T, options?: ResourceOptions): RouteDefinition[]
  fallback<T>(handler: RouteHandler<T>): RouteDefinition
  group(options: GroupOptions, routes: () => void): void
  domain(pattern: string): DomainGroup
  getRoutes(): readonly RouteDefinition[]
  url(name: string, params?: UrlParams): string
  signedUrl(name: string, params?: UrlParams, options?: { expiresIn?: number }): string
  absoluteUrl(name: string, params?: UrlParams): string
}

/** The application's router, bound once by its first `loadRoutesFromFile`. */
let application: RouteRegistrar | undefined

/**
 * Binds the facade to the application's router; `router.loadRoutesFromFile` does it. A process has one
 * application: a second router cannot take the facade over (its route files, already imported, would
 * not run again), so that is an error that says so.
 */
export function bindRoute(router: RouteRegistrar): void {
  if (application !== undefined && application !== router) {
    throw new Error(
      'The Route facade is bound to the application\'s router already: a process loads its routes files once, into one router. Register on another router with router.get(...) and the like',
    )
  }
  application = router
}

function router(call: string): RouteRegistrar {
  if (!application) {
    throw new Error(`Route.${call}() was called outside router.loadRoutesFromFile(); routes belong in routes/web.ts`)
  }
  return application
}

/**
 * The route registration facade used in `routes/*.ts`, bound to the application's router (the one
 * that loads `routes/web.ts`). A routes file may import another: `import './auth.js'`.
 *
 * @example
 * ```ts
 * Route.get('/', () => Response.json({ status: 'running' }))
 * Route.get('/users/{id}', [UserController, 'show']).name('users.show').whereNumber('id')
 * Route.resource('photos', PhotoController)
 * Route.group({ prefix: '/api', middleware: 'auth' }, () => {
 *   Route.post('/tasks', [TaskController, 'store'])
 * })
 * Route.domain('{account}.example.com').group(() => {
 *   Route.get('/', [AccountController, 'show'])
 * })
 * ```
 */
export const Route = {
  get<T, P extends unknown[] = string[]>(pattern: string, handler: RouteHandler<T, P>): RouteDefinition {
    return router('get').get(pattern, handler)
  },
  post<T, P extends unknown[] = string[]>(pattern: string, handler: RouteHandler<T, P>): RouteDefinition {
    return router('post').post(pattern, handler)
  },
  put<T, P extends unknown[] = string[]>(pattern: string, handler: RouteHandler<T, P>): RouteDefinition {
    return router('put').put(pattern, handler)
  },
  patch<T, P extends unknown[] = string[]>(pattern: string, handler: RouteHandler<T, P>): RouteDefinition {
    return router('patch').patch(pattern, handler)
  },
  delete<T, P extends unknown[] = string[]>(pattern: string, handler: RouteHandler<T, P>): RouteDefinition {
    return router('delete').delete(pattern, handler)
  },
  options<T, P extends unknown[] = string[]>(pattern: string, handler: RouteHandler<T, P>): RouteDefinition {
    return router('options').options(pattern, handler)
  },
  any<T, P extends unknown[] = string[]>(pattern: string, handler: RouteHandler<T, P>): RouteDefinition {
    return router('any').any(pattern, handler)
  },
  match<T, P extends unknown[] = string[]>(methods: readonly string[], pattern: string, handler: RouteHandler<T, P>): RouteDefinition {
    return router('match').match(methods, pattern, handler)
  },
  /** Laravel's resource routes: `Route.resource('photos', PhotoController)` (see `router.resource`). */
  resource<T>(name: string, Controller: new (...args: any[]) => T, options?: ResourceOptions): RouteDefinition[] {
    return router('resource').resource(name, Controller, options)
  },
  /** Resource routes without `create` and `edit`. */
  apiResource<T>(name: string, Controller: new (...args: any[]) => T, options?: ResourceOptions): RouteDefinition[] {
    return router('apiResource').apiResource(name, Controller, options)
  },
  /** What answers a path that no route matches, instead of the 404. */
  fallback<T>(handler: RouteHandler<T>): RouteDefinition {
    return router('fallback').fallback(handler)
  },
  group(options: GroupOptions, routes: () => void): void {
    router('group').group(options, routes)
  },
  /**
   * Routes that answer only on a host of the pattern, its parameters first for the handler (see `router.domain`):
   * `Route.domain('{account}.example.com').group(() => { Route.get('/', …) })`.
   */
  domain(pattern: string): DomainGroup {
    return router('domain').domain(pattern)
  },
  /**
   * The application's routes, at any time (not only while routes/web.ts loads). Empty before a
   * router has loaded routes.
   *
   * @example
   * ```ts
   * const paths = Route.getRoutes().map((route) => `${route.methods.join('|')} ${route.pattern}`)
   * ```
   */
  getRoutes(): readonly RouteDefinition[] {
    return application?.getRoutes() ?? []
  },
  /** The path of a named route of the application: `Route.url('users.show', { id: 5 })` is `/users/5` (see `router.url`). */
  url(name: string, params?: UrlParams): string {
    return loaded('url').url(name, params)
  },
  /**
   * The absolute, signed link of a named route of the application, built on `APP_URL`, for a route with the `signed`
   * middleware: `Route.signedUrl('unsubscribe', { user: 5 }, { expiresIn: 3600 })` (see `router.signedUrl`).
   */
  signedUrl(name: string, params?: UrlParams, options?: { expiresIn?: number }): string {
    return loaded('signedUrl').signedUrl(name, params, options)
  },
  /**
   * The absolute link of a named route of the application, built on `APP_URL` (never the Host header), for a mail:
   * `Route.absoluteUrl('password.reset', { token, email })` (see `router.absoluteUrl`).
   */
  absoluteUrl(name: string, params?: UrlParams): string {
    return loaded('absoluteUrl').absoluteUrl(name, params)
  },
}

/** The application's router once its routes are loaded, for what reads them. */
function loaded(call: string): RouteRegistrar {
  if (!application) throw new Error(`Route.${call}() needs the application's routes: it works once router.loadRoutesFromFile() has loaded them`)
  return application
}
