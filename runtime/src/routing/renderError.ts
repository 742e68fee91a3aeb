import { ConstraintViolationError } from '../database/ConstraintViolationError.js'
import { debugPage, errorPage } from '../http/errorPage.js'
import { HttpError } from '../http/HttpError.js'
import type { Request } from '../http/Request.js'
import { Response } from '../http/Response.js'
import type { Logger } from '../log/Logger.js'

/**
 * An application's error hook: a Response for the errors it wants to answer itself, or undefined for
 * the default (see `renderError`). It receives every failure, HttpErrors included.
 */
export type ErrorHandler = (error: unknown, request: Request) => Response | undefined

/**
 * The default error response, as DESIGN.md's table says: an HttpError answers its status, message and
 * headers; anything else is logged with the request and its id and answered 500 `Internal Server Error`, with the
 * message and stack only when `debug` is on. A browser asking for a page (`request.expectsJson()` is false: its
 * `Accept` prefers `text/html` to JSON) gets the same status as an HTML page; every other client gets JSON.
 */
export function renderError(error: unknown, request: Request, debug: boolean, logger: Logger): Response {
  const page = !request.expectsJson()
  if (error instanceof HttpError) {
    if (!page) return error.toResponse()
    const response = Response.html(errorPage(error.status, error.message), error.status)
    for (const key of Object.keys(error.headers)) response.setHeader(key, error.headers[key]!)
    return response
  }
  // A unique or foreign-key violation that reached the database answers 409/422 naming the field, never a 500.
  const violation = ConstraintViolationError.from(error)
  if (violation) return renderError(violation, request, debug, logger)
  const detail = error instanceof Error ? error : new Error(String(error))
  const route = request.route()
  logger.error(`[fw] ${request.method()} ${request.uri()}${route ? ` (route ${route})` : ''} failed:`, detail, { requestId: request.id() })
  if (page) return Response.html(debug ? debugPage(detail, request) : errorPage(500, 'Internal Server Error'), 500)
  if (!debug) return Response.error('Internal Server Error', 500)
  return Response.json({ error: detail.message, exception: detail.name, stack: detail.stack?.split('\n').map((line) => line.trim()) }, 500)
}
