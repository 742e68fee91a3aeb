import { HttpError } from '../http/HttpError.js'

/**
 * The database cannot answer right now: PostgreSQL is down, dropped the connection, or no pool slot
 * freed up in time; SQLite's write lock stayed with another process past the deadline. The router
 * answers it as any HttpError: 503 `{"error":"Service Unavailable"}`. The driver's error stays in
 * `cause` (and in the log), never in the body.
 *
 * @example
 * ```ts
 * try { await db().insertInto('posts').values(post).execute() }
 * catch (error) { if (error instanceof DatabaseUnavailableError) retryLater(post); else throw error }
 * ```
 */
export class DatabaseUnavailableError extends HttpError {
  constructor(cause: unknown) {
    super(503, 'Service Unavailable', { cause })
    this.name = 'DatabaseUnavailableError'
  }
}

let lastLogged = 0
let unlogged = 0

/**
 * Logs why the database was unavailable and returns the error to throw. At most one line a second:
 * while PostgreSQL is down every request fails the same way, and the log must stay readable.
 */
export function databaseUnavailable(cause: unknown): DatabaseUnavailableError {
  const now = Date.now()
  if (now - lastLogged < 1000) {
    unlogged++
  } else {
    const more = unlogged > 0 ? ` (and ${unlogged} more since the last report)` : ''
    console.error(`[fw] database unavailable: ${cause instanceof Error ? cause.message : String(cause)}${more}`)
    lastLogged = now
    unlogged = 0
  }
  return new DatabaseUnavailableError(cause)
}
