import { isMissingTable } from '../database/createTables.js'
import { db, transaction } from '../database/db.js'
import type { Logger } from '../log/Logger.js'
import { queue } from '../queue/queue.js'
import type { ScheduledTask, TaskAction } from './ScheduledTask.js'
import { claimRun, createScheduleRunsTable, pruneRuns, SCHEDULE_RUNS_TABLE } from './scheduleRuns.js'

/** A slot missed by less than this (a scheduler restarted, a late timer) still runs; an older one is skipped. */
export const GRACE_MS = 60_000

/** The longest sleep between two looks at the clock, so that a clock set forward is noticed within a minute. */
const MAX_SLEEP_MS = 60_000

/** How often a running scheduler deletes the old claims. */
const PRUNE_EVERY_MS = 60 * 60 * 1000

/**
 * What became of one slot of a task: its job dispatched, its function called, someone else's (another scheduler
 * claimed it first), skipped (its previous run is not finished) or failed (the error is logged).
 */
export type SlotOutcome = 'dispatched' | 'called' | 'taken' | 'skipped' | 'failed'

export interface SlotResult {
  readonly task: string
  /** The slot, in milliseconds since the epoch. */
  readonly runAt: number
  readonly outcome: SlotOutcome
}

export interface SchedulerOptions {
  logger: Logger
  /**
   * How a command task (`schedule.command('digest:send')`) runs its `fw` command; resolves to its exit code.
   * `fw schedule:work` runs it as a child process in the app's folder (`runFwCommand`).
   */
  runCommand?: (argv: readonly string[]) => Promise<number>
}

/**
 * Runs the tasks of a schedule at their times, as Laravel's `schedule:work`, with any number of schedulers on the
 * application's database (`db()`): at each slot (a task's time, a whole second in UTC) a scheduler first claims the slot in
 * `fw_schedule_runs`, whose primary key lets one claim only. A job is dispatched in the claim's transaction, so
 * that with `QUEUE_DRIVER=database` the claim and the job are written together or not at all. A call's claim is
 * committed first, then the function runs in this process. Slots missed by more than a minute are skipped.
 *
 * @example
 * ```ts
 * const scheduler = new Scheduler(schedule.tasks(), { logger: createLogger() })
 * process.once('SIGTERM', () => scheduler.stop())
 * await scheduler.run()
 * ```
 */
export class Scheduler {
  readonly #tasks: readonly ScheduledTask[]
  readonly #logger: Logger
  readonly #runCommand: SchedulerOptions['runCommand']
  /** The runs under way in this process, which `stop()` waits for. */
  readonly #inFlight = new Set<Promise<SlotResult>>()
  /** Keys of the `withoutOverlapping()` tasks that have a run under way in this process. */
  readonly #busy = new Set<string>()
  #stopping = false
  #wake: (() => void) | undefined
  #finished: Promise<void> | undefined
  #prunedAt = 0

  constructor(tasks: readonly ScheduledTask[], options: SchedulerOptions) {
    this.#tasks = tasks
    this.#logger = options.logger
    this.#runCommand = options.runCommand
  }

  /**
   * What `fw schedule:run` does, once: for each task, its latest slot in the minute up to `now`, run unless a
   * scheduler has claimed it already. Resolves when those runs are done (a call has returned, a job is queued),
   * with what became of each.
   */
  async runDue(now = Date.now()): Promise<SlotResult[]> {
    await this.#prepare(now)
    const runs: Promise<SlotResult>[] = []
    for (const task of this.#tasks) {
      const latest = task.slotsBetween(now - GRACE_MS, now).at(-1)
      if (latest !== undefined) runs.push(this.#runSlot(task, latest))
    }
    return Promise.all(runs)
  }

  /**
   * What `fw schedule:work` does: runs each slot as it comes until `stop()`, sleeping until the next one (a minute
   * at most). On start, a task's latest slot under a minute old still runs if no scheduler has claimed it.
   */
  run(): Promise<void> {
    return (this.#finished ??= this.#loop())
  }

  /** Takes no new slot, and resolves once the runs under way are done (and `run()` has resolved). */
  async stop(): Promise<void> {
    this.#stopping = true
    this.#wake?.()
    if (this.#finished) await this.#finished
  }

  async #loop(): Promise<void> {
    const started = Date.now()
    await this.#prepare(started)
    // Each task's runs are looked for after its cursor; at first, just before its latest slot of the last minute.
    const cursors = new Map<ScheduledTask, number>()
    for (const task of this.#tasks) {
      const latest = task.slotsBetween(started - GRACE_MS, started).at(-1)
      cursors.set(task, latest === undefined ? started : latest - 1)
    }
    while (!this.#stopping) {
      const now = Date.now()
      for (const task of this.#tasks) {
        for (const runAt of task.slotsBetween(Math.max(cursors.get(task)!, now - GRACE_MS), now)) this.#start(task, runAt)
        cursors.set(task, now)
      }
      await this.#pruneNowAndThen(now)
      const next = Math.min(...this.#tasks.map((task) => task.nextRun(new Date(now)).getTime()))
      await this.#sleep(Math.min(next - Date.now(), MAX_SLEEP_MS))
    }
    await Promise.allSettled(this.#inFlight)
  }

  /** Makes the runs table when it is missing, and deletes old claims. */
  async #prepare(now: number): Promise<void> {
    await createScheduleRunsTable(db())
    await this.#pruneNowAndThen(now)
  }

  #start(task: ScheduledTask, runAt: number): void {
    const run = this.#runSlot(task, runAt)
    this.#inFlight.add(run)
    void run.finally(() => this.#inFlight.delete(run))
  }

  /** Claims the slot and, when this scheduler got it, runs the task; never throws (a failure is logged). */
  async #runSlot(task: ScheduledTask, runAt: number): Promise<SlotResult> {
    const at = new Date(runAt).toISOString()
    let outcome: SlotOutcome
    const claimAndRun = () => {
      const { action } = task
      if (action.kind === 'job') return this.#dispatch(task, action, runAt)
      if (action.kind === 'call') return this.#call(task, action.call, runAt)
      return this.#call(task, () => this.#command(action.argv), runAt)
    }
    try {
      try {
        outcome = await claimAndRun()
      } catch (error) {
        if (!isMissingTable(error, SCHEDULE_RUNS_TABLE)) throw error
        // The table went under a running scheduler (fw migrate:fresh): made again, the slot is claimed as usual.
        await createScheduleRunsTable(db())
        outcome = await claimAndRun()
      }
    } catch (error) {
      this.#logger.error(`[fw] scheduled task ${task.key} (${at}) failed:`, error, { task: task.key, at })
      outcome = 'failed'
    }
    if (outcome === 'dispatched') this.#logger.info?.(`${task.key} ${queue.driverName() === 'sync' ? 'ran' : 'queued'}`, { at })
    if (outcome === 'called') this.#logger.info?.(`${task.key} ran`, { at })
    if (outcome === 'skipped') this.#logger.info?.(`${task.key} skipped: its previous run is not finished`, { at })
    return { task: task.key, runAt, outcome }
  }

  /**
   * Claims the slot and dispatches the job in one transaction: with `QUEUE_DRIVER=database` both rows commit
   * together; with `sync` the job runs once the claim has committed, before this resolves.
   */
  async #dispatch(task: ScheduledTask, { job, payload, options }: TaskAction & { kind: 'job' }, runAt: number): Promise<SlotOutcome> {
    const uniqueKey = options.uniqueKey ?? `schedule:${task.key}`
    let marked = false
    try {
      return await transaction(async () => {
        if (!(await claimRun(db(), task.key, runAt))) return 'taken'
        if (!task.overlaps) {
          if (this.#busy.has(task.key) || (await this.#jobWaits(job.name, uniqueKey))) return 'skipped'
          this.#busy.add(task.key)
          marked = true
        }
        await queue.dispatch(job, payload, task.overlaps ? options : { ...options, uniqueKey })
        return 'dispatched'
      })
    } finally {
      if (marked) this.#busy.delete(task.key)
    }
  }

  /** Claims the slot (committed at once), then calls the function in this process. */
  async #call(task: ScheduledTask, call: () => unknown, runAt: number): Promise<SlotOutcome> {
    if (!(await claimRun(db(), task.key, runAt))) return 'taken'
    if (!task.overlaps) {
      if (this.#busy.has(task.key)) return 'skipped'
      this.#busy.add(task.key)
    }
    try {
      await call()
    } finally {
      if (!task.overlaps) this.#busy.delete(task.key)
    }
    return 'called'
  }

  /** Runs a command task's `fw` command; an exit code other than 0 fails the run. */
  async #command(argv: readonly string[]): Promise<void> {
    if (!this.#runCommand) throw new Error('this scheduler was given no runCommand, so it cannot run fw commands')
    const code = await this.#runCommand(argv)
    if (code !== 0) throw new Error(`fw ${argv.join(' ')} exited with code ${code}`)
  }

  /** Whether a job of the class with that key waits or runs in the queue; a driver that keeps no job (sync) has none. */
  async #jobWaits(name: string, uniqueKey: string): Promise<boolean> {
    if (queue.driverName() === 'sync' || queue.driverName() === 'fake') return false
    return queue.stored().unfinished(name, uniqueKey)
  }

  async #pruneNowAndThen(now: number): Promise<void> {
    if (now - this.#prunedAt < PRUNE_EVERY_MS) return
    this.#prunedAt = now
    try {
      await pruneRuns(db(), now)
    } catch (error) {
      this.#logger.error('[fw] the scheduler could not delete its old runs from fw_schedule_runs:', error)
    }
  }

  /** Waits `ms`, or less when `stop()` is called. */
  #sleep(ms: number): Promise<void> {
    if (this.#stopping || ms <= 0) return Promise.resolve()
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms)
      function done() {
        clearTimeout(timer)
        resolve()
      }
      this.#wake = () => {
        this.#wake = undefined
        done()
      }
    })
  }
}
