import type { Cradle } from '../container/Container.js'

/** How a job is queued; each option falls back to the job class's `static options`, then to Fw's default. */
export interface DispatchOptions {
  /** The queue it waits on, for workers that take only some queues (default `default`). */
  queue?: string
  /** Seconds before it may run (default 0). */
  delay?: number
  /** How many times it may run before it is failed (default 3). */
  attempts?: number
  /** Seconds before the second try, doubled for each later one (default 10). */
  backoff?: number
  /** At most one job of this class with this key waits at a time: a dispatch while one waits is dropped. */
  uniqueKey?: string
}

/** A job class: built from the container's services, as a controller is, and run with its payload. */
export interface JobConstructor<Payload = any> {
  new (cradle: Cradle): { handle(payload: Payload): unknown }
  readonly name: string
  readonly options?: DispatchOptions
  /** Its payload is stored encrypted (see `Job.encrypted`). */
  readonly encrypted?: boolean
}

/** A job on its way to a queue, its options settled and its payload checked to be JSON. */
export interface PendingJob {
  readonly job: JobConstructor
  /** The class's name, which a worker looks the class up by. */
  readonly name: string
  readonly payload: unknown
  readonly queue: string
  readonly attempts: number
  readonly backoff: number
  /** When it may run first. */
  readonly availableAt: Date
  readonly uniqueKey: string | undefined
}

/** Where dispatched jobs go: run now (`sync`), recorded (`fake`), or stored for workers. */
export interface QueueDriver {
  readonly name: string
  push(job: PendingJob): Promise<void>
}

/** A job a worker has claimed, under a lease of its own until it completes or fails. */
export interface ClaimedJob {
  readonly id: string
  readonly queue: string
  /** The class's name, which the worker looks the class up by. */
  readonly name: string
  readonly payload: unknown
  /** Which run of the job this is, from 1. */
  readonly attempt: number
  /** How many runs it may have. */
  readonly attempts: number
  /** The claim's own token: once another worker has claimed the job, this one's writes change nothing. */
  readonly lease: string
}

/** What became of a failed run: run again later, failed for good, or no longer this worker's (its lease expired). */
export type FailOutcome = 'retry' | 'failed' | 'lost'

/** A queue that stores jobs for workers: what a worker asks of it. Each write after the claim is fenced by the lease. */
export interface StoredQueue extends QueueDriver {
  /** How often a running job's claim is renewed, in milliseconds (a third to a half of how long it lasts). */
  readonly heartbeatMs: number
  /** The next job that is due on the first of `queues` that has one, leased to `worker`; undefined when none is. */
  claim(queues: readonly string[], worker: string): Promise<ClaimedJob | undefined>
  /** Extends the lease; false when the job is no longer this worker's. */
  heartbeat(job: ClaimedJob): Promise<boolean>
  /** Removes the job, done; false when it was no longer this worker's (it may run again elsewhere). */
  complete(job: ClaimedJob): Promise<boolean>
  /** Records the error; the job runs again after its backoff while it has attempts left (and `retry` is not false). */
  fail(job: ClaimedJob, error: unknown, options?: { retry?: boolean }): Promise<FailOutcome>
  /** Whether a job of that class with that unique key waits or runs: for a task that must not overlap itself. */
  unfinished(name: string, uniqueKey: string): Promise<boolean>
  /** The failed jobs, oldest first, with what they threw. */
  failed(): Promise<FailedJob[]>
  /** Puts failed jobs back on their queue with their attempts renewed; the number put back. */
  retry(ids: readonly string[] | 'all'): Promise<number>
  /** Deletes failed jobs; the number deleted. */
  flush(ids?: readonly string[]): Promise<number>
  /** How many jobs wait (due or delayed), run and have failed. */
  counts(): Promise<QueueCounts>
  /**
   * Waits up to `ms` for a job to come, resolving early when the driver hears of one (PostgreSQL's NOTIFY, another
   * process's commit on SQLite, a dispatch in this process) or when `signal` aborts: what an idle worker does between
   * two claims.
   */
  wait(ms: number, signal: AbortSignal): Promise<void>
  /**
   * Told by each worker of this process, before its first claim, how many jobs it runs at once, so that the driver
   * can size what it opens for itself (pg-boss's connection pool).
   */
  runsAtOnce?(jobs: number): void
  /** Closes what the driver opened for itself. */
  close?(): Promise<void>
}

/** A failed job, as `fw queue:failed` lists it. */
export interface FailedJob {
  readonly id: string
  readonly queue: string
  readonly name: string
  readonly payload: unknown
  readonly attempts: number
  readonly failedAt: Date
  readonly error: JobError
}

/** What a failed run threw, as it is stored. */
export interface JobError {
  readonly name: string
  readonly message: string
  readonly stack: string | undefined
}

export interface QueueCounts {
  readonly waiting: number
  readonly active: number
  readonly failed: number
}
