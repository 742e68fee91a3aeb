import type { Container } from '../container/Container.js'
import type { Request } from '../http/Request.js'
import { Response } from '../http/Response.js'
import { controllerFactory } from './controllerFactory.js'
import { DeclaredResponses } from './DeclaredResponses.js'
import type { Middleware, RouteDefinition, RouteHandler } from './RouteDefinition.js'

/**
 * One step of a request: the request, and the route's parameter values in path order (none outside a route).
 * A step that can answer at once returns the Response itself (no promise, no turn of the event loop);
 * it may also throw, which the router and the middleware layers turn into an error response.
 */
export type Pipeline = (request: Request, values: readonly string[]) => Response | Promise<Response>

/** Turns a failure into its error response (the router's error hook, then the default). */
export type RenderError = (error: unknown, request: Request) => Response

/**
 * The handler of a route as a pipeline step; a controller's method and construction are decided here, once, and so
 * is what holds its answers to the responses it declares (`.returns()`, see DeclaredResponses).
 */
export function handlerStep(route: RouteDefinition, container: Container): Pipeline {
  const declared = route.declared?.responses ? DeclaredResponses.for(route) : undefined
  const answer = declared ? (result: unknown) => settleDeclared(result, route, declared) : (result: unknown) => settle(result, route)
  const handler = route.handler
  if (typeof handler === 'function') return (request, values) => answer(handler(request, ...values))
  const [Controller, method] = handler
  // The method is found once, here: looked up by name per request, from code shared by every route, it
  // would be a megamorphic property access once an application has a few controllers.
  const action = (Controller.prototype as Record<string, (...args: unknown[]) => unknown>)[method]!
  const make = controllerFactory(Controller, container)
  return (request, values) => answer(action.call(make(request), request, ...values))
}

/**
 * Wraps the core in middleware, outermost first. As in Laravel's pipeline, a failure inside a layer
 * is rendered into its error response right there, so the layers outside it (CORS, logging) still
 * see a Response for a 404 or a 500.
 */
export function compose(middleware: readonly Middleware[], core: Pipeline, source: RouteDefinition | string, render: RenderError): Pipeline {
  if (middleware.length === 0) return core
  const guarded = (request: Request, values: readonly string[]): Promise<Response> => {
    try {
      return Promise.resolve(core(request, values)).then(undefined, (error: unknown) => render(error, request))
    } catch (error) {
      return Promise.resolve(render(error, request))
    }
  }
  return middleware.reduceRight<(request: Request, values: readonly string[]) => Promise<Response>>(
    (next, layer) => async (request, values) => {
      try {
        return toResponse(await layer(request, () => next(request, values)), source)
      } catch (error) {
        return render(error, request)
      }
    },
    guarded,
  )
}

/** What a handler returned, as a Response: at once when it answered synchronously (most do), else a promise of it. */
function settle(result: unknown, route: RouteDefinition): Response | Promise<Response> {
  if (result instanceof Response) return result
  if (typeof (result as PromiseLike<unknown> | null)?.then === 'function') {
    return Promise.resolve(result).then((value) => toResponse(value, route))
  }
  return toResponse(result, route)
}

/** `settle` for a route whose declared responses hold its answers. */
function settleDeclared(result: unknown, route: RouteDefinition, declared: DeclaredResponses): Response | Promise<Response> {
  if (result instanceof Response) return declared.answer(result)
  if (typeof (result as PromiseLike<unknown> | null)?.then === 'function') {
    return Promise.resolve(result).then((value) => settleDeclared(value, route, declared))
  }
  if (isPlainResult(result)) return declared.plain(result)
  return toResponse(result, route)
}

function toResponse(result: unknown, source: RouteDefinition | string): Response {
  if (result instanceof Response) return result
  if (isPlainResult(result)) return Response.json(result)
  throw new Error(`${String(source)} returned ${describe(result)}; a handler must return a Response or a plain object`)
}

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

/** Refuses a handler that cannot work, at registration, naming the route. */
export function checkHandler(pattern: string, handler: RouteHandler): void {
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
