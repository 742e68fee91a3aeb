import { HttpError } from '../http/HttpError.js'

/**
 * At most `concurrency` password hashes at once in this process, and at most `queue` waiting: past that,
 * a request is answered 503 with `Retry-After` at once instead of piling up behind the others. A flood of
 * junk sign-ins then costs a bounded amount of memory (scrypt takes 32 MiB a hash) and a real user's
 * sign-in waits behind at most `queue` hashes.
 *
 * @example
 * ```ts
 * const limiter = new HashLimiter(2, 8)
 * const key = await limiter.run(() => derive(password, salt))
 * ```
 */
export class HashLimiter {
  private running = 0
  private readonly waiting: (() => void)[] = []

  constructor(
    readonly concurrency: number,
    readonly queue: number,
  ) {}

  /** Runs the work when a slot is free; throws a 503 HttpError when the queue is full. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.queue) {
        throw new HttpError(503, 'The server is busy; try again in a moment.', { headers: { 'Retry-After': '1' } })
      }
      // The slot is handed over by the finishing run, so `running` never drops below the limit in between.
      await new Promise<void>((resolve) => this.waiting.push(resolve))
    } else {
      this.running++
    }
    try {
      return await work()
    } finally {
      const next = this.waiting.shift()
      if (next) next()
      else this.running--
    }
  }
}
