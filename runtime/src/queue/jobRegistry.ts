import { join, relative } from 'node:path'
import { pathToFileURL } from 'node:url'
import { SendQueuedMail } from '../mail/SendQueuedMail.js'
import { JOB_BRAND } from './Job.js'
import { jobModules } from './jobModules.js'
import type { JobConstructor } from './types.js'

/** The job classes a worker can run, by class name (what a stored job names). */
export type JobRegistry = ReadonlyMap<string, JobConstructor>

/** Fw's own jobs, which every worker runs without the app listing them: the mail `mail.to(…).send(…)` queues. */
const FRAMEWORK_JOBS: readonly JobConstructor[] = [SendQueuedMail]

/**
 * Imports every module under `folder` (the app's `App/Jobs`, or `dist/App/Jobs` once built) and keeps the classes
 * they export that extend `Job`, by name, with Fw's own jobs (`SendQueuedMail`). Two classes of one name would make a
 * stored job ambiguous: that throws, naming both files (or the Fw job the app's class shares its name with).
 *
 * @example
 * ```ts
 * const jobs = await loadJobs(join(root, 'App/Jobs'))
 * jobs.get('SendWelcomeEmail')
 * ```
 */
export async function loadJobs(folder: string): Promise<JobRegistry> {
  const jobs = new Map<string, JobConstructor>(FRAMEWORK_JOBS.map((job) => [job.name, job]))
  const files = new Map<JobConstructor, string>()
  for (const file of jobModules(folder)) {
    const exports = (await import(pathToFileURL(join(folder, file)).href)) as Record<string, unknown>
    for (const value of Object.values(exports)) {
      if (!isJobClass(value)) continue
      const known = jobs.get(value.name)
      if (known && known !== value) {
        if (FRAMEWORK_JOBS.includes(known)) throw new Error(`${value.name} (${file}) has the name of one of Fw's own jobs: a stored job names its class, so rename it`)
        throw new Error(`Two job classes are named ${value.name} (${relative(folder, files.get(known)!)} and ${file}): a stored job names its class, so rename one`)
      }
      jobs.set(value.name, value)
      files.set(value, join(folder, file))
    }
  }
  return jobs
}

/** A class that extends Job and has its own handle() (Job itself, or an abstract base of the app's, has none). */
function isJobClass(value: unknown): value is JobConstructor {
  return typeof value === 'function' && (value as unknown as Record<symbol, unknown>)[JOB_BRAND] === true && typeof value.prototype?.handle === 'function'
}
