import { Cron } from 'croner'
import type { DispatchOptions, JobConstructor } from '../queue/types.js'

/** What a task does at its times: queue a job, call a function in the scheduler's process, or run an `fw` command. */
export type TaskAction =
  | { readonly kind: 'job'; readonly job: JobConstructor; readonly payload: unknown; readonly options: DispatchOptions }
  | { readonly kind: 'call'; readonly call: () => unknown }
  | { readonly kind: 'command'; readonly argv: readonly string[] }

/** A task's key: 1 to 200 characters, no spaces (it is stored with each run and printed by `fw schedule:list`). */
const KEY = /^\S{1,200}$/

/** `13:00` or `7:05`: the time of day `dailyAt` takes. */
const TIME_OF_DAY = /^([01]?\d|2[0-3]):([0-5]\d)$/

/** Every cron expression runs every minute until a frequency is given, as Laravel's events do. */
const EVERY_MINUTE = '* * * * *'

/**
 * One task of the schedule: what it does (a job to queue, or a function to call), when (a cron expression read in
 * its time zone, UTC unless `.timezone()` says otherwise) and under which key its runs are recorded. The times come
 * from croner; a bad expression or time zone throws at once, naming the task.
 *
 * @example
 * ```ts
 * schedule.job(PruneTokens).hourly()
 * schedule.job(SendDigest, { kind: 'weekly' }).weekly().timezone('Europe/Paris').withoutOverlapping()
 * schedule.call('heartbeat', () => fetch('https://status.example.com/ping')).everyFiveMinutes()
 * schedule.command('digest:send --queue').dailyAt('08:00')
 * ```
 */
export class ScheduledTask {
  #key: string
  #expression = EVERY_MINUTE
  #timezone = 'UTC'
  #withoutOverlapping = false
  #cron: Cron

  constructor(
    key: string,
    readonly action: TaskAction,
  ) {
    this.#key = checkedKey(key)
    this.#cron = this.#compile(this.#expression, this.#timezone)
  }

  /** The key its runs are recorded under: the name given, else `job:<ClassName>` or `command:<name>`. */
  get key(): string {
    return this.#key
  }

  /** Its cron expression: 5 parts (minute first), or 6 with seconds first. */
  get expression(): string {
    return this.#expression
  }

  /** The IANA time zone its expression is read in. */
  get timezoneName(): string {
    return this.#timezone
  }

  /** Whether a run is skipped while the previous one waits or runs. */
  get overlaps(): boolean {
    return !this.#withoutOverlapping
  }

  /** Records its runs under `key` instead of the default one; two tasks of one schedule never share a key. */
  name(key: string): this {
    this.#key = checkedKey(key)
    return this
  }

  /**
   * Runs at the times of a cron expression: `minute hour day-of-month month day-of-week`, or six parts with the
   * seconds first (`*\/10 * * * * *`: every ten seconds). `@hourly`, `@daily` and the like also work.
   */
  cron(expression: string): this {
    this.#cron = this.#compile(expression, this.#timezone)
    this.#expression = expression
    return this
  }

  /** Reads the expression in an IANA time zone (`Europe/Paris`): `dailyAt('09:00')` is 9 o'clock there, summer and winter. */
  timezone(zone: string): this {
    this.#cron = this.#compile(this.#expression, zone)
    this.#timezone = zone
    return this
  }

  /**
   * Skips a run while the task's previous run is not finished. For a job: while a job it queued waits or runs
   * (with `QUEUE_DRIVER=database`; the `sync` driver runs the job inside the scheduler, which waits for it). For a
   * call or a command: while its previous run from this scheduler process is still running.
   */
  withoutOverlapping(): this {
    this.#withoutOverlapping = true
    return this
  }

  everySecond(): this {
    return this.cron('* * * * * *')
  }

  everyMinute(): this {
    return this.cron(EVERY_MINUTE)
  }

  everyFiveMinutes(): this {
    return this.cron('*/5 * * * *')
  }

  everyFifteenMinutes(): this {
    return this.cron('*/15 * * * *')
  }

  hourly(): this {
    return this.cron('0 * * * *')
  }

  /** Every hour at `minute` past. */
  hourlyAt(minute: number): this {
    if (!Number.isInteger(minute) || minute < 0 || minute > 59) throw this.#error(`hourlyAt() takes a minute from 0 to 59, got ${String(minute)}`)
    return this.cron(`${minute} * * * *`)
  }

  /** Every day at midnight. */
  daily(): this {
    return this.cron('0 0 * * *')
  }

  /** Every day at a time of day, `'13:00'`, in the task's time zone. */
  dailyAt(time: string): this {
    const match = TIME_OF_DAY.exec(time)
    if (!match) throw this.#error(`dailyAt() takes a time of day such as '13:00', got ${JSON.stringify(time)}`)
    return this.cron(`${Number(match[2])} ${Number(match[1])} * * *`)
  }

  /** Every Sunday at midnight. */
  weekly(): this {
    return this.cron('0 0 * * 0')
  }

  /** The first day of every month at midnight. */
  monthly(): this {
    return this.cron('0 0 1 * *')
  }

  /** The first of its times after `from` (never `from` itself). */
  nextRun(from: Date): Date {
    // An expression croner accepts but that never comes true (`0 0 30 2 *`) was refused when it was given.
    return this.#cron.nextRun(from)!
  }

  /** Its next `count` times after `from`. */
  nextRuns(count: number, from: Date): Date[] {
    return this.#cron.nextRuns(count, from)
  }

  /** Its times after `after` up to `until` included, oldest first: the slots a scheduler has to run. */
  slotsBetween(after: number, until: number): number[] {
    const slots: number[] = []
    let next = this.#cron.nextRun(new Date(after))
    while (next && next.getTime() <= until) {
      slots.push(next.getTime())
      next = this.#cron.nextRun(next)
    }
    return slots
  }

  /** croner's reading of the expression in the zone, with no timer; what it throws is said again naming the task. */
  #compile(expression: string, zone: string): Cron {
    if (typeof zone !== 'string' || !isTimeZone(zone)) throw this.#error(`${JSON.stringify(zone)} is not an IANA time zone (such as UTC or Europe/Paris)`)
    let cron: Cron
    try {
      cron = new Cron(expression, { timezone: zone, mode: '5-or-6-parts' })
    } catch (error) {
      throw this.#error(`bad cron expression ${JSON.stringify(expression)}: ${error instanceof Error ? error.message : String(error)}`)
    }
    if (!cron.nextRun()) throw this.#error(`the cron expression ${JSON.stringify(expression)} never comes true`)
    return cron
  }

  #error(message: string): Error {
    return new Error(`Scheduled task ${this.#key}: ${message}`)
  }
}

/** Whether the platform's time zone data knows `zone`. */
function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone })
    return true
  } catch {
    return false
  }
}

function checkedKey(key: string): string {
  if (typeof key !== 'string' || !KEY.test(key)) throw new Error(`A scheduled task's name must be 1 to 200 characters without spaces, got ${JSON.stringify(key)}`)
  return key
}
