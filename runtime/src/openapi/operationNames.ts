import type { Constructor } from '../container/Container.js'
import type { RouteDefinition } from '../routing/RouteDefinition.js'

/** Each controller class's file under `App/Controllers`, without its extension: `Api/UserController`. */
export type ControllerPaths = ReadonlyMap<Constructor<object>, string>

/** The operationIds and tags of a document's routes, from their names, their controllers' files, or their paths. */
export interface OperationNames {
  /** The route's name; else `Api.UserController.store`; else the method and path: `get_api_health`. */
  operationId(route: RouteDefinition, method: string, path: string): string
  /** The controller's name without `Controller`, with its folder where two controllers share a name; else the path's first word. */
  tag(route: RouteDefinition): string
}

/**
 * Names for the operations of `routes`. A controller's operationId is its file's path under `App/Controllers`
 * (`App/Controllers/Api/UserController.ts` gives `Api.UserController.store`) when `controllers` knows the class
 * (`controllerPaths` reads the application's files), else its class name; so two controllers of one name are told
 * apart by their folders, whatever order the routes come in. Its tag is `User`, or `Api/User` beside another
 * `UserController`.
 *
 * @example
 * ```ts
 * const names = operationNames(routes, await controllerPaths(routes, appRoot()))
 * names.operationId(route, 'POST', '/api/users') // 'Api.UserController.store'
 * ```
 */
export function operationNames(routes: readonly RouteDefinition[], controllers: ControllerPaths = new Map()): OperationNames {
  const classes = new Set(routes.flatMap((route) => (typeof route.handler === 'function' ? [] : [route.handler[0]])))
  const byTag = new Map<string, Constructor<object>[]>()
  for (const controller of classes) {
    const tag = baseTag(controller)
    byTag.set(tag, [...(byTag.get(tag) ?? []), controller])
  }
  const tags = new Map<Constructor<object>, string>()
  for (const [tag, sharing] of byTag) {
    for (const controller of sharing) {
      const folder = controllers.get(controller)?.split('/').slice(0, -1).join('/')
      tags.set(controller, sharing.length > 1 && folder ? `${folder}/${tag}` : tag)
    }
  }
  return {
    operationId(route, method, path) {
      if (route.routeName) return route.routeName
      if (typeof route.handler !== 'function') {
        const [controller, action] = route.handler
        return `${(controllers.get(controller) ?? controller.name).replace(/\//g, '.')}.${action}`
      }
      const words = path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, '')
      return `${method.toLowerCase()}_${words || 'root'}`
    },
    tag(route) {
      if (typeof route.handler !== 'function') return tags.get(route.handler[0])!
      return route.pattern.split('/').find((segment) => segment !== '' && !segment.includes('{')) ?? 'default'
    },
  }
}

function baseTag(controller: Constructor<object>): string {
  return controller.name.replace(/Controller$/, '') || controller.name
}
