import type { GroupOptions, Router } from './Router.js'
import type { RouteDefinition, RouteHandler } from './RouteDefinition.js'

let current: Router | undefined
/** The router that loaded a routes file last: the application's, once it has started. */
let loaded: Router | undefined

function router(call: string): Router {
  if (!current) {
    throw new Error(`Route.${call}() was called outside router.loadRoutesFromFile(); routes belong in routes/web.ts`)
  }
  return current
}

/**
 * The route registration facade used in `routes/web.ts`. Each call registers on the router that is
 * loading the file (see `router.loadRoutesFromFile`).
 *
 * @example
 * ```ts
 * Route.get('/', () => Response.json({ status: 'running' }))
 * Route.get('/users/{id}', [UserController, 'show']).name('users.show')
 * Route.group({ prefix: '/api', middleware: 'auth' }, () => {
 *   Route.post('/tasks', [TaskController, 'store'])
 * })
 * ```
 */
export const Route = {
  get<T>(pattern: string, handler: RouteHandler<T>): RouteDefinition {
    return router('get').get(pattern, handler)
  },
  post<T>(pattern: string, handler: RouteHandler<T>): RouteDefinition {
    return router('post').post(pattern, handler)
  },
  put<T>(pattern: string, handler: RouteHandler<T>): RouteDefinition {
    return router('put').put(pattern, handler)
  },
  patch<T>(pattern: string, handler: RouteHandler<T>): RouteDefinition {
    return router('patch').patch(pattern, handler)
  },
  delete<T>(pattern: string, handler: RouteHandler<T>): RouteDefinition {
    return router('delete').delete(pattern, handler)
  },
  options<T>(pattern: string, handler: RouteHandler<T>): RouteDefinition {
    return router('options').options(pattern, handler)
  },
  any<T>(pattern: string, handler: RouteHandler<T>): RouteDefinition {
    return router('any').any(pattern, handler)
  },
  match<T>(methods: readonly string[], pattern: string, handler: RouteHandler<T>): RouteDefinition {
    return router('match').match(methods, pattern, handler)
  },
  group(options: GroupOptions, routes: () => void): void {
    router('group').group(options, routes)
  },
  /**
   * The application's routes, at any time (not only while routes/web.ts loads): those of the router
   * loading a routes file now, or else of the last one that loaded one. Empty before any has.
   *
   * @example
   * ```ts
   * const paths = Route.getRoutes().map((route) => `${route.methods.join('|')} ${route.pattern}`)
   * ```
   */
  getRoutes(): readonly RouteDefinition[] {
    return (current ?? loaded)?.getRoutes() ?? []
  },
  /** The router that routes files register on now (set by `loadRoutesFromFile`), or undefined. */
  current(): Router | undefined {
    return current
  },
  /** Points the facade at a router; `loadRoutesFromFile` does this around the import. */
  setRouter(target: Router | undefined): void {
    current = target
    if (target) loaded = target
  },
}
