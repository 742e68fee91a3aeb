import { AssertionError } from 'node:assert'
import { afterCommit } from '../database/db.js'
import type { DispatchOptions, JobConstructor, PendingJob, QueueDriver } from './types.js'

/** A job the fake recorded: its payload, and the options it was queued with. */
export interface PushedJob<Payload> {
  payload: Payload
  options: Required<Omit<DispatchOptions, 'uniqueKey' | 'delay'>> & { uniqueKey: string | undefined; availableAt: Date }
}

type Predicate<Payload> = (payload: Payload, options: PushedJob<Payload>['options']) => boolean

type PayloadOf<J> = J extends JobConstructor<infer Payload> ? Payload : never

/**
 * What `queue.fake()` puts in place of the queue, for tests: it runs nothing and records each dispatched job (inside
 * `transaction()`, once the transaction commits: a rolled-back dispatch leaves no job), to assert on as Laravel's
 * `Queue::fake()` does.
 *
 * @example
 * ```ts
 * const jobs = queue.fake()
 * await client.post('/register', { … })
 * jobs.assertPushed(SendWelcomeEmail, (payload) => payload.userId === 1)
 * ```
 */
export class QueueFake implements QueueDriver {
  readonly name = 'fake'
  readonly #jobs: PendingJob[] = []

  async push(job: PendingJob): Promise<void> {
    await afterCommit(() => {
      // A unique job already waiting takes the place of this one, as in a real queue.
      if (job.uniqueKey !== undefined && this.#jobs.some((other) => other.name === job.name && other.uniqueKey === job.uniqueKey)) return
      this.#jobs.push(job)
    })
  }

  /** The jobs of that class pushed so far, in order. */
  pushed<J extends JobConstructor>(job: J): PushedJob<PayloadOf<J>>[] {
    return this.#jobs
      .filter((pushed) => pushed.job === job)
      .map(({ payload, queue, attempts, backoff, uniqueKey, availableAt }) => ({
        payload: payload as PayloadOf<J>,
        options: { queue, attempts, backoff, uniqueKey, availableAt },
      }))
  }

  /** Fails unless a job of that class was pushed (one whose payload and options `matching` accepts, when given). */
  assertPushed<J extends JobConstructor>(job: J, matching?: Predicate<PayloadOf<J>>): void {
    if (!this.#matching(job, matching).length) throw this.#failure(job, `Expected ${job.name} to be pushed${matching ? ' with a matching payload' : ''}`)
  }

  /** Fails unless exactly `times` jobs of that class were pushed. */
  assertPushedTimes<J extends JobConstructor>(job: J, times: number): void {
    const count = this.pushed(job).length
    if (count !== times) throw this.#failure(job, `Expected ${job.name} to be pushed ${times} time(s), it was pushed ${count}`)
  }

  /** Fails if a job of that class was pushed (one that `matching` accepts, when given). */
  assertNotPushed<J extends JobConstructor>(job: J, matching?: Predicate<PayloadOf<J>>): void {
    if (this.#matching(job, matching).length) throw this.#failure(job, `Expected ${job.name} not to be pushed${matching ? ' with a matching payload' : ''}`)
  }

  /** Fails if any job was pushed. */
  assertNothingPushed(): void {
    if (this.#jobs.length) {
      throw new AssertionError({ message: `Expected no job to be pushed, got ${this.#jobs.map((job) => job.name).join(', ')}` })
    }
  }

  #matching<J extends JobConstructor>(job: J, matching: Predicate<PayloadOf<J>> | undefined): PushedJob<PayloadOf<J>>[] {
    const pushed = this.pushed(job)
    return matching ? pushed.filter(({ payload, options }) => matching(payload, options)) : pushed
  }

  #failure(job: JobConstructor, message: string): AssertionError {
    const payloads = this.pushed(job).map(({ payload }) => JSON.stringify(payload) ?? 'undefined')
    return new AssertionError({ message: payloads.length ? `${message}; pushed with: ${payloads.join(', ')}` : message })
  }
}
