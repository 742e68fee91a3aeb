import { HttpError } from '../http/HttpError.js'

/**
 * The cache cannot answer right now: Redis is down, hangs past its deadline, or a `remember` waited longer than its
 * deadline for another process to compute the value. The router answers it as any HttpError: 503
 * `{"error":"Service Unavailable"}`. The reason stays in `cause` (and in the log), never in the body. On the
 * database store, the database's own DatabaseUnavailableError (also a 503) reaches the caller instead.
 *
 * @example
 * ```ts
 * try { return await cache().remember('stats', 60, computeStats) }
 * catch (error) { if (error instanceof CacheUnavailableError) return computeStats(); throw error }
 * ```
 */
export class CacheUnavailableError extends HttpError {
  constructor(cause: unknown) {
    super(503, 'Service Unavailable', { cause })
    this.name = 'CacheUnavailableError'
  }
}

let lastLogged = 0
let unlogged = 0

/**
 * Logs why the cache was unavailable and returns the error to throw. At most one line a second: while Redis is down
 * every request fails the same way, and the log must stay readable.
 */
export function cacheUnavailable(cause: unknown): CacheUnavailableError {
  const now = Date.now()
  if (now - lastLogged < 1000) {
    unlogged++
  } else {
    const more = unlogged > 0 ? ` (and ${unlogged} more since the last report)` : ''
    console.error(`[fw] cache unavailable: ${cause instanceof Error ? cause.message : String(cause)}${more}`)
    lastLogged = now
    unlogged = 0
  }
  return new CacheUnavailableError(cause)
}
