import type { Constructor, Container } from '../container/Container.js'
import type { Request } from '../http/Request.js'

/** Builds the controller for one request. */
export type ControllerFactory = (request: Request) => object

/**
 * How a route's controller is built, decided once when the routes are compiled:
 * - a constructor that takes nothing (nor does any class it extends) is called with nothing;
 * - one that takes dependencies gets a cradle: `request`, and every service registered at compile time
 *   as a getter. Singletons and values come from the container itself; only a scoped or transient
 *   service (which may depend on the request) opens an awilix scope, once per request, on first read.
 *   So the documented `constructor({ db })` costs no scope per request.
 *
 * @example
 * ```ts
 * const make = controllerFactory(UserController, container)
 * const controller = make(request)
 * ```
 */
export function controllerFactory(Controller: Constructor, container: Container): ControllerFactory {
  if (!takesArguments(Controller)) return () => new Controller()
  const Cradle = cradleClass(container)
  return (request) => new Controller(new Cradle(request))
}

/** Whether the class or one it extends declares constructor parameters (an implicit constructor passes them on). */
export function takesArguments(target: Function): boolean {
  for (let current = target; current !== Function.prototype && current !== null; current = Object.getPrototypeOf(current)) {
    if (current.length > 0) return true
  }
  return false
}

interface RequestCradle {
  readonly request: Request
  scope: Container | undefined
}

type CradleClass = new (request: Request) => RequestCradle

const cradles = new WeakMap<Container, CradleClass>()

/** One cradle class per container, with a getter for each service registered when it is first needed. */
function cradleClass(container: Container): CradleClass {
  let Cradle = cradles.get(container)
  if (Cradle) return Cradle
  Cradle = class {
    readonly request: Request
    scope: Container | undefined = undefined
    constructor(request: Request) {
      this.request = request
    }
  }
  const registrations = container.awilix.registrations
  for (const name of Object.keys(registrations)) {
    if (name === 'request') continue
    const lifetime = registrations[name]!.lifetime
    const shared = lifetime === undefined || lifetime === 'SINGLETON'
    Object.defineProperty(Cradle.prototype, name, {
      enumerable: true,
      get: shared
        ? () => container.awilix.resolve(name)
        : function (this: RequestCradle) {
            this.scope ??= container.createScope().instance('request', this.request)
            return this.scope.awilix.resolve(name)
          },
    })
  }
  cradles.set(container, Cradle)
  return Cradle
}
