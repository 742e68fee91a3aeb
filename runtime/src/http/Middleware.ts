import type { Request } from './Request.js'
import type { Response } from './Response.js'

/** What a handler may return: a Response, or a plain object or array that becomes JSON. */
export type HandlerResult = Response | Record<string, unknown> | readonly unknown[]

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
