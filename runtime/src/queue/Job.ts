import { queue } from './queue.js'
import type { DispatchOptions } from './types.js'

/** What marks a job class for a worker that loads the app's jobs, whichever copy of fw-runtime it came from. */
export const JOB_BRAND = Symbol.for('fw.job')

/** The payload a job class's `handle` takes. */
export type PayloadOf<J> = J extends Job<infer Payload> ? Payload : never

/** A dispatch's arguments: the payload (optional when the job takes none), then the options. */
type DispatchArgs<Payload> = undefined extends Payload ? [payload?: Payload, options?: DispatchOptions] : [payload: Payload, options?: DispatchOptions]

/**
 * Work to do outside the request, as a Laravel job: a class with a payload (plain JSON: it is stored until a worker
 * runs it) and `handle(payload)`. Its constructor receives the container's services, as a controller's does.
 * `static options` sets its defaults (queue, delay, attempts, backoff); a dispatch may override them.
 *
 * @example
 * ```ts
 * export class SendWelcomeEmail extends Job<{ userId: number }> {
 *   static override options = { attempts: 5 }
 *   async handle({ userId }: { userId: number }): Promise<void> {
 *     const user = await User.findOrFail(userId)
 *   }
 * }
 * await SendWelcomeEmail.dispatch({ userId: user.id }, { delay: 60 })
 * ```
 */
export abstract class Job<Payload = undefined> {
  /** Defaults of every dispatch of this job. */
  static options: DispatchOptions = {}

  /**
   * Whether its payload is stored encrypted with `APP_KEY`, as Laravel's `ShouldBeEncrypted`: for a job that carries
   * a secret (a token, a link that signs someone in), which would otherwise sit readable in the jobs table until it
   * has run, and after it has failed. A worker opens it with APP_KEY or a key of `APP_PREVIOUS_KEYS`; a payload no key
   * opens fails the job at once, saying so. Fw's queued mail is always encrypted.
   *
   * @example
   * ```ts
   * export class SendInvitation extends Job<{ email: string; token: string }> {
   *   static override encrypted = true
   *   …
   * }
   * ```
   */
  static encrypted = false

  static readonly [JOB_BRAND] = true

  abstract handle(payload: Payload): unknown

  /** Queues this job with its payload; inside `transaction()`, the job exists once the transaction commits. */
  static dispatch<J extends Job<any>>(this: (new (...args: any[]) => J) & { options?: DispatchOptions }, ...[payload, options]: DispatchArgs<PayloadOf<J>>): Promise<void> {
    return queue.dispatch(this, payload, options)
  }
}
