import { afterCommit } from '../database/db.js'
import { runJob } from './runJob.js'
import type { PendingJob, QueueDriver } from './types.js'

/**
 * `QUEUE_DRIVER=sync`: a job runs in the dispatching process as soon as it is dispatched, or, inside
 * `transaction()`, once the transaction has committed. Delay, attempts and backoff do not apply, and what the job
 * throws reaches the dispatch, as with Laravel's sync connection.
 */
export class SyncQueue implements QueueDriver {
  readonly name = 'sync'

  async push(job: PendingJob): Promise<void> {
    await afterCommit(() => runJob(job.job, job.payload))
  }
}
