import type { Request } from '../http/Request.js'
import type { Response } from '../http/Response.js'

/** A request waiting for its handler's answer, linked in the order the requests started. */
export interface PendingAnswer {
  readonly request: Request
  readonly resolve: (response: Response) => void
  /** `performance.now()` when it started. */
  readonly startedAt: number
  previous: PendingAnswer | null
  next: PendingAnswer | null
  /** False once the answer came or the deadline passed. */
  waiting: boolean
}

/**
 * The handler timeout of every request in flight, kept by one timer. Every request gets the same number of
 * milliseconds, so their deadlines come in the order the requests started: a request is appended when it starts
 * waiting and unlinked when its answer comes, and the one timer wakes at the oldest deadline, expires what is
 * past it and sleeps until the next. A Node timer per request (created, inserted, cleared: with its async
 * hooks, a few µs and about 200 bytes each) costs a database route more than this list does.
 *
 * @example
 * ```ts
 * const deadlines = new AnswerDeadlines(30_000, (pending) => pending.resolve(Response.error('Service Unavailable', 503)))
 * const pending = deadlines.add(request, resolve)
 * // when the answer comes:
 * if (deadlines.remove(pending)) resolve(response)
 * ```
 */
export class AnswerDeadlines {
  private oldest: PendingAnswer | null = null
  private newest: PendingAnswer | null = null
  private timer: NodeJS.Timeout | null = null

  constructor(
    readonly ms: number,
    private readonly onExpire: (pending: PendingAnswer) => void,
  ) {}

  /** Starts the clock of one request. */
  add(request: Request, resolve: (response: Response) => void): PendingAnswer {
    const pending: PendingAnswer = { request, resolve, startedAt: performance.now(), previous: this.newest, next: null, waiting: true }
    if (this.newest) this.newest.next = pending
    else this.oldest = pending
    this.newest = pending
    this.timer ??= setTimeout(this.expire, this.ms)
    return pending
  }

  /** Stops the clock of a request that answered; false when its deadline had already passed. */
  remove(pending: PendingAnswer): boolean {
    if (!pending.waiting) return false
    this.unlink(pending)
    // Nothing left to time: a timer kept armed would hold an idle process open until it fires.
    if (this.oldest === null && this.timer !== null) {
      clearTimeout(this.timer)
      this.timer = null
    }
    return true
  }

  private unlink(pending: PendingAnswer): void {
    pending.waiting = false
    if (pending.previous) pending.previous.next = pending.next
    else this.oldest = pending.next
    if (pending.next) pending.next.previous = pending.previous
    else this.newest = pending.previous
    pending.previous = pending.next = null
  }

  private readonly expire = (): void => {
    this.timer = null
    // Node may run a timer up to a millisecond before performance.now() says it is due.
    const now = performance.now() + 1
    while (this.oldest !== null && this.oldest.startedAt + this.ms <= now) {
      const pending = this.oldest
      this.unlink(pending)
      this.onExpire(pending)
    }
    if (this.oldest !== null) this.timer = setTimeout(this.expire, Math.max(1, this.oldest.startedAt + this.ms - now + 1))
  }
}
