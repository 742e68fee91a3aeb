import { db } from '../database/db.js'
import { createLogger } from '../log/Logger.js'
import { pauseWhileDown } from '../maintenance/pauseWhileDown.js'
import { loadMailClasses } from '../mail/mailClasses.js'
import { jobsFolder, mailFolder } from './appJobs.js'
import { queueDriverName } from './driverName.js'
import { jobModules } from './jobModules.js'
import { loadJobs } from './jobRegistry.js'
import { queue } from './queue.js'
import { Worker } from './Worker.js'

/**
 * Under `fw serve` (which sets `FW_QUEUE_IN_PROCESS=1`): a worker in the server's own process, so that a job
 * dispatched in development runs with no second terminal. Nothing when the queue stores no job (`sync`), or when the
 * app has neither a job nor a mail class yet (no queue is polled for nothing; `fw serve` restarts when App/Jobs or
 * App/Mail gains one: a mail sent is a job, Fw's SendQueuedMail). The app has set itself up already; its jobs are its
 * TypeScript sources. A job module that fails to load is one line, and the server runs on: the jobs wait until it is
 * fixed.
 */
export async function startInProcessWorker(root: string): Promise<{ stop(): Promise<void> } | undefined> {
  if (queueDriverName() === 'sync') return undefined
  if (jobModules(jobsFolder(root, false)).length === 0 && jobModules(mailFolder(root, false)).length === 0) return undefined
  const logger = createLogger()
  let worker: Worker
  try {
    const jobs = await loadJobs(jobsFolder(root, false))
    await loadMailClasses(mailFolder(root, false))
    worker = new Worker(queue.stored({ worker: true }), jobs, { logger, paused: pauseWhileDown(db()) })
  } catch (error) {
    logger.error('[fw] no queue worker in this process: the jobs wait until this is fixed:', error)
    return undefined
  }
  const running = worker.run()
  return {
    async stop() {
      worker.stop()
      await running
    },
  }
}
