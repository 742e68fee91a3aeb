import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import type { Logger } from '../log/Logger.js'
import { openPayload } from './encryptedPayload.js'
import type { JobRegistry } from './jobRegistry.js'
import { runJob } from './runJob.js'
import type { ClaimedJob, StoredQueue } from './types.js'
import { UnrecoverableJobError } from './UnrecoverableJobError.js'

export interface WorkerOptions {
  /** The queues to take jobs from, the first first (default `['default']`). */
  queues?: readonly string[]
  /** Jobs run at once (default 1). */
  concurrency?: number
  /** Stop after the first job, or at once when none is due (`--once`). */
  once?: boolean
  /** Stop after this many jobs (`--max-jobs`). */
  maxJobs?: number
  /** Stop after this many seconds, once the jobs in flight are done (`--max-time`). */
  maxTime?: number
  /** Milliseconds between two claims at an empty queue (default 1000); the queue wakes the worker sooner for a new job. */
  pollMs?: number
  /** Asked before each job (not with `once`): while true the worker takes none, as while `fw down` holds. */
  paused?: () => boolean | Promise<boolean>
  logger: Logger
}

/** Why a worker stopped. */
export type StopReason = 'stopped' | 'once' | 'max-jobs' | 'max-time' | 'restart'

/**
 * Takes jobs from a stored queue and runs them, as `php artisan queue:work`: each in a slot of its own (up to
 * `concurrency`), the class built from the container with its services, its payload opened first when it is stored
 * encrypted (see `Job.encrypted`), the lease renewed while it runs. A job that
 * throws runs again after its backoff until its attempts are spent, then it is failed with its error and stack; one
 * that throws an `UnrecoverableJobError` is failed at once.
 * `stop()` (SIGTERM) takes no new job and resolves `run()` once the jobs in flight are done.
 *
 * @example
 * ```ts
 * const worker = new Worker(new DatabaseQueue(), await loadJobs('App/Jobs'), { concurrency: 4, logger: createLogger() })
 * process.once('SIGTERM', () => worker.stop())
 * await worker.run()
 * ```
 */
export class Worker {
  /** Who holds a lease, as the jobs table shows it: host, process and this worker. */
  readonly id = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`
  readonly #queues: readonly string[]
  readonly #concurrency: number
  readonly #stopping = new AbortController()
  #reason: StopReason = 'stopped'
  #started = 0
  #finished = 0

  constructor(
    private readonly queue: StoredQueue,
    private readonly jobs: JobRegistry,
    private readonly options: WorkerOptions,
  ) {
    this.#queues = options.queues?.length ? options.queues : ['default']
    this.#concurrency = options.concurrency ?? 1
    queue.runsAtOnce?.(options.once ? 1 : this.#concurrency)
  }

  /** Runs until `stop()`, or until `once`, `maxJobs` or `maxTime` says so; what stopped it. */
  async run(): Promise<StopReason> {
    const timer = this.options.maxTime === undefined ? undefined : setTimeout(() => this.stop('max-time'), this.options.maxTime * 1000)
    try {
      await Promise.all(Array.from({ length: this.options.once ? 1 : this.#concurrency }, () => this.#slot()))
    } finally {
      clearTimeout(timer)
    }
    return this.#reason
  }

  /** Takes no new job; `run()` resolves once the jobs in flight are done. */
  stop(reason: StopReason = 'stopped'): void {
    if (this.#stopping.signal.aborted) return
    this.#reason = reason
    this.#stopping.abort()
  }

  /** How many jobs this worker has finished, done or failed. */
  get processed(): number {
    return this.#finished
  }

  async #slot(): Promise<void> {
    const { signal } = this.#stopping
    while (!signal.aborted) {
      if (!this.options.once && (await this.options.paused?.())) {
        await this.queue.wait(this.options.pollMs ?? 1000, signal)
        continue
      }
      if (this.options.maxJobs !== undefined && this.#started >= this.options.maxJobs) return this.stop('max-jobs')
      // Counted before the claim, so that slots side by side never take more than maxJobs between them.
      this.#started++
      let job: ClaimedJob | undefined
      try {
        job = await this.queue.claim(this.#queues, this.id)
      } catch (error) {
        this.options.logger.error(`[fw] queue worker ${this.id} could not claim a job; trying again`, error)
      }
      if (!job) this.#started--
      if (job) {
        await this.#run(job)
        this.#finished++
        if (this.options.once) return this.stop('once')
        continue
      }
      if (this.options.once) return this.stop('once')
      await this.queue.wait(this.options.pollMs ?? 1000, signal)
    }
  }

  async #run(job: ClaimedJob): Promise<void> {
    const { logger } = this.options
    const fields = { job: job.name, id: job.id, attempt: `${job.attempt}/${job.attempts}` }
    const started = performance.now()
    const heartbeat = setInterval(() => {
      this.queue.heartbeat(job).then(
        (held) => held || logger.error(`[fw] ${job.name} #${job.id} is no longer this worker's (its lease expired): it may run again elsewhere`, fields),
        (error: unknown) => logger.error(`[fw] ${job.name} #${job.id}: the lease could not be renewed`, error, fields),
      )
    }, this.queue.heartbeatMs)
    try {
      const type = this.jobs.get(job.name)
      if (!type) {
        const outcome = await this.queue.fail(job, new Error(`No job class ${job.name} among the app's jobs (App/Jobs): was it renamed or deleted?`), { retry: false })
        logger.error(`[fw] ${job.name} #${job.id} failed: no job class of that name in App/Jobs`, { ...fields, outcome })
        return
      }
      try {
        await runJob(type, openPayload(job.name, job.payload))
      } catch (error) {
        const outcome = await this.queue.fail(job, error, { retry: !UnrecoverableJobError.isUnrecoverable(error) })
        const what = outcome === 'retry' ? 'will run again' : outcome === 'failed' ? 'failed (fw queue:failed lists it)' : 'lost its lease'
        logger.error(`[fw] ${job.name} #${job.id} threw: it ${what}`, error, { ...fields, ms: Math.round(performance.now() - started) })
        return
      }
      const held = await this.queue.complete(job)
      const ms = Math.round(performance.now() - started)
      if (held) logger.info?.(`${job.name} #${job.id} done`, { ...fields, ms })
      else logger.error(`[fw] ${job.name} #${job.id} finished after its lease expired: it may run again elsewhere`, { ...fields, ms })
    } catch (error) {
      // The queue's database failed under the job's outcome: the lease runs out and the job runs again.
      logger.error(`[fw] ${job.name} #${job.id}: its outcome could not be stored; it runs again once its lease expires`, error, fields)
    } finally {
      clearInterval(heartbeat)
    }
  }
}
