import { Response } from './Response.js'

/**
 * The one way to fail with an HTTP status. Thrown from a handler or a middleware, the router
 * turns it into the seed's error body `{"error": message}` with this status.
 *
 * @example
 * ```ts
 * if (!task) throw new HttpError(404, 'Task not found')
 * ```
 */
export class HttpError extends Error {
  readonly status: number
  /** Extra headers for the error response, e.g. `Allow` on a 405 or `Retry-After` on a 429. */
  readonly headers: Record<string, string>

  constructor(status: number, message: string, options: { headers?: Record<string, string>; cause?: unknown } = {}) {
    super(message, { cause: options.cause })
    this.name = 'HttpError'
    this.status = status
    this.headers = options.headers ?? {}
  }

  /** The answer for this error: the seed's `{"error": message}` body with the status and headers. */
  toResponse(): Response {
    const response = Response.error(this.message, this.status)
    for (const [key, value] of Object.entries(this.headers)) response.setHeader(key, value)
    return response
  }
}
