import { Container } from '../container/Container.js'
import type { PendingJob } from './types.js'

/** Builds the job's class from the process-wide container (its constructor gets the services) and runs it. */
export async function runJob(job: PendingJob): Promise<void> {
  const instance = Container.getInstance().make(job.job)
  await instance.handle(job.payload)
}
