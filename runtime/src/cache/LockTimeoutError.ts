import { HttpError } from '../http/HttpError.js'

/**
 * `lock.block(seconds)` waited its seconds and another owner still held the lock, as Laravel's
 * `LockTimeoutException`. Uncaught, the router answers 503 with its message: the work could not be done now, and may
 * be tried again.
 *
 * @example
 * ```ts
 * try { await cache().lock('import', 120).block(5, runImport) }
 * catch (error) { if (error instanceof LockTimeoutError) return Response.json({ started: false }, 409); throw error }
 * ```
 */
export class LockTimeoutError extends HttpError {
  constructor(
    /** The lock's name, as given to `cache().lock(name)`. */
    readonly lock: string,
    /** How long `block` waited for it. */
    readonly seconds: number,
  ) {
    super(503, `The lock "${lock}" was still held by another owner after waiting ${seconds} s`)
    this.name = 'LockTimeoutError'
  }
}
