/** What marks an UnrecoverableJobError for a worker, whichever copy of fw-runtime the job's class came from. */
const UNRECOVERABLE = Symbol.for('fw.unrecoverableJobError')

/**
 * What a job throws when running it again cannot help (the mail server refused the address for good, the record it
 * works on is gone): the worker fails the job at once, with this error, whatever attempts it has left, and
 * `fw queue:failed` lists it. Any other error runs the job again after its backoff. Under `QUEUE_DRIVER=sync` it
 * reaches the dispatch, as every error does.
 *
 * @example
 * ```ts
 * const user = await User.find(userId)
 * if (!user) throw new UnrecoverableJobError(`User ${userId} was deleted before the job ran`)
 * ```
 */
export class UnrecoverableJobError extends Error {
  override readonly name = 'UnrecoverableJobError'
  readonly [UNRECOVERABLE] = true

  /** Whether `error` is an UnrecoverableJobError (from any copy of fw-runtime). */
  static isUnrecoverable(error: unknown): boolean {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[UNRECOVERABLE] === true
  }
}
