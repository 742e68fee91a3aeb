import type { DispatchOptions, JobConstructor } from '../queue/types.js'
import { commandLine } from './commandLine.js'
import { ScheduledTask } from './ScheduledTask.js'

/** The tasks the schedule file declares, in the order it declares them. */
const tasks: ScheduledTask[] = []

/**
 * The application's schedule, declared in `bootstrap/schedule.ts` and run by `fw schedule:work` (or `fw
 * schedule:run` from the system's cron). Each task runs once per time however many schedulers run: every run is
 * claimed in the application's database first.
 *
 * @example
 * ```ts
 * import { schedule } from 'fw-runtime/schedule'
 * import { PruneTokens } from '#app/Jobs/PruneTokens.js'
 *
 * schedule.job(PruneTokens).hourly()
 * schedule.job(SendDigest, { kind: 'daily' }).dailyAt('08:00').timezone('Europe/Paris').withoutOverlapping()
 * schedule.call('cache:warm', () => warmCache()).cron('*\/5 * * * *')
 * schedule.command('digest:send --queue').dailyAt('08:00')
 * ```
 */
export const schedule = {
  /**
   * Queues `job` with `payload` and dispatch options at each of the task's times (every minute until a frequency
   * is given). Its key is `job:<ClassName>`: scheduling one class twice needs `.name()` on one of them.
   */
  job<P>(job: JobConstructor<P>, payload?: P, options: DispatchOptions = {}): ScheduledTask {
    if (typeof job !== 'function') throw new TypeError(`schedule.job() takes a job class, got ${String(job)}`)
    return add(new ScheduledTask(`job:${job.name}`, { kind: 'job', job, payload, options }))
  },

  /** Calls `call` in the scheduler's process at each of the task's times; `name` is its key, which a function lacks. */
  call(name: string, call: () => unknown): ScheduledTask {
    if (typeof call !== 'function') throw new TypeError(`schedule.call(${JSON.stringify(name)}, …) takes a function to call`)
    return add(new ScheduledTask(name, { kind: 'call', call }))
  },

  /**
   * Runs an `fw` command at each of the task's times, one of the app's (App/Console/Commands) or of fw's own, given
   * as it is typed after `fw` (quotes keep spaces inside an argument). It runs as `fw <line>` would from a shell, in
   * a child process in the app's folder: its own arguments checked, the app booted for it, its output in the
   * scheduler's, and an exit code other than 0 logged as the run's failure. A command that crashes or leaks a timer
   * cannot take the scheduler down with it. Its key is `command:<name>`: scheduling one command twice (with other
   * arguments) needs `.name()` on one of them.
   *
   * @example
   * ```ts
   * schedule.command('digest:send --queue').dailyAt('08:00').timezone('Europe/Paris')
   * schedule.command('queue:flush').weekly()
   * ```
   */
  command(line: string): ScheduledTask {
    if (typeof line !== 'string') throw new TypeError(`schedule.command() takes a command line such as 'digest:send --queue', got ${String(line)}`)
    const argv = commandLine(line)
    if (argv.length === 0 || argv[0]!.startsWith('-')) throw new TypeError(`schedule.command() takes a command line that starts with the command's name, got ${JSON.stringify(line)}`)
    return add(new ScheduledTask(`command:${argv[0]}`, { kind: 'command', argv }))
  },

  /**
   * The tasks declared so far. Throws when two share a key (the key is how a run is recorded, so they would take
   * each other's runs), naming both.
   */
  tasks(): readonly ScheduledTask[] {
    const byKey = new Map<string, ScheduledTask>()
    for (const task of tasks) {
      const twin = byKey.get(task.key)
      if (twin) {
        throw new Error(
          `Two scheduled tasks have the key ${task.key} (one '${twin.expression}', one '${task.expression}'): give one of them its own .name('…')`,
        )
      }
      byKey.set(task.key, task)
    }
    return [...tasks]
  },

  /** Forgets every task: for tests that declare a schedule of their own. */
  clear(): void {
    tasks.length = 0
  },
}

function add(task: ScheduledTask): ScheduledTask {
  tasks.push(task)
  return task
}
