import { Container } from '../container/Container.js'
import { takesArguments } from '../routing/controllerFactory.js'
import type { JobConstructor } from './types.js'

/**
 * Builds a job's class and runs it with its payload: from the process-wide container when its constructor takes the
 * services (as a controller's does), else with `new` alone, which spares a worker reading the constructor's
 * parameters for every job.
 */
export async function runJob(job: JobConstructor, payload: unknown): Promise<void> {
  const instance = takesArguments(job) ? Container.getInstance().make(job) : new job(undefined as never)
  await instance.handle(payload)
}
