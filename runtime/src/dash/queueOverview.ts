import { queue } from '../queue/queue.js'
import type { FailedJob } from '../queue/types.js'

/** How many failed jobs an overview lists. */
const LATEST_FAILED = 20

/** The job queue as a dashboard's overview shows it. */
export interface QueueOverview {
  /** The driver keeping the jobs: `database` (SQLite's `fw_jobs`) or `pgboss` (PostgreSQL). */
  driver: string
  /** Jobs waiting (due or delayed), running, and failed. */
  counts: { waiting: number; running: number; failed: number }
  /** The latest failed jobs, newest first: at most 20 of the `counts.failed`. */
  failed: FailedJobSummary[]
}

/** A failed job in one line of a list. */
export interface FailedJobSummary {
  id: string
  queue: string
  /** The job's class. */
  name: string
  /** How many times it ran. */
  attempts: number
  failedAt: Date
  /** The first line of what its last run threw: `TypeError: cannot read the upload`. */
  error: string
}

/**
 * The application's queue: its driver, how many jobs wait, run and have failed, and the latest failed ones;
 * undefined when `QUEUE_DRIVER` keeps no jobs (`sync` runs each at dispatch). Only the `StoredQueue` interface is
 * used, so SQLite's table and PostgreSQL's pg-boss read alike.
 *
 * @example
 * ```ts
 * await queueOverview() // { driver: 'database', counts: { waiting: 2, running: 1, failed: 1 }, failed: [{ id: '7', … }] }
 * ```
 */
export async function queueOverview(): Promise<QueueOverview | undefined> {
  if (!queue.keepsJobs()) return undefined
  const stored = queue.stored()
  const [counts, failed] = await Promise.all([stored.counts(), stored.failed()])
  return {
    driver: stored.name,
    counts: { waiting: counts.waiting, running: counts.active, failed: counts.failed },
    // failed() lists the oldest first.
    failed: failed.slice(-LATEST_FAILED).reverse().map(summary),
  }
}

/**
 * What came of retrying a failed job: `queued` again, its attempts afresh; `not-failed`, as no failed job has that id
 * (under `sync` none has); or `twin-waits`: a unique job whose twin (same class and key) already waits stays failed,
 * and the waiting one will do its work.
 */
export type RetryOutcome = 'queued' | 'not-failed' | 'twin-waits'

/**
 * Puts the failed job with that id back on its queue, its attempts afresh, and says what came of it.
 *
 * @example
 * ```ts
 * await retryJobOutcome('7') // 'queued': job 7 waits again for a worker
 * ```
 */
export async function retryJobOutcome(id: string): Promise<RetryOutcome> {
  if (!queue.keepsJobs()) return 'not-failed'
  const stored = queue.stored()
  // An id from a URL reaches the driver only once it is known to be a failed job's: not every text is an id to a driver.
  const isFailed = async () => (await stored.failed()).some((job) => job.id === id)
  if (!(await isFailed())) return 'not-failed'
  if ((await stored.retry([id])) === 1) return 'queued'
  // Still failed: the driver left it for its waiting twin. Gone meanwhile: someone else retried or flushed it.
  return (await isFailed()) ? 'twin-waits' : 'not-failed'
}

/**
 * Puts the failed job with that id back on its queue, its attempts afresh; false when no failed job has that id, or
 * when a unique job of the same key already waits and this one stays failed (`retryJobOutcome` tells which).
 *
 * @example
 * ```ts
 * await retryFailedJob('7') // true: job 7 waits again for a worker
 * ```
 */
export async function retryFailedJob(id: string): Promise<boolean> {
  return (await retryJobOutcome(id)) === 'queued'
}

function summary(job: FailedJob): FailedJobSummary {
  const firstLine = job.error.message.split('\n')[0]
  return { id: job.id, queue: job.queue, name: job.name, attempts: job.attempts, failedAt: job.failedAt, error: `${job.error.name}: ${firstLine}` }
}
