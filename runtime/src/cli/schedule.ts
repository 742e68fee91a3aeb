import { join } from 'node:path'
import type { ScheduledTask } from '../schedule/ScheduledTask.js'
import { CommandError, type Command } from './Command.js'
import { onSupervisorGone } from './supervisorGone.js'
import { table } from './table.js'

const NO_SCHEDULE = 'No schedule: write bootstrap/schedule.ts'

/**
 * The app's schedule (its `.env` read first, bootstrap/app.ts run, bootstrap/schedule.ts imported: in production
 * their build in dist/) handed to `work` with the app's database registered for `db()`, which is closed after.
 * `tasks` is undefined when the app has no schedule file.
 */
async function withSchedule<T>(cwd: string, work: (tasks: readonly ScheduledTask[] | undefined) => Promise<T>): Promise<T> {
  const [{ loadEnv }, { isProduction }, { Container }, { createDatabase }, { loadAppSchedule }] = await Promise.all([
    import('../config/loadEnv.js'),
    import('../config/environment.js'),
    import('../container/Container.js'),
    import('../database/createDatabase.js'),
    import('../schedule/appSchedule.js'),
  ])
  loadEnv(join(cwd, '.env'))
  const built = isProduction()
  if (!built) await import('./loadTypeScript.js').then(({ loadTypeScript }) => loadTypeScript())
  // The app's database, for the claims and for the tasks' own db(): the one of its folder, wherever fw is installed.
  const database = createDatabase(process.env.DATABASE_URL, cwd)
  Container.getInstance().instance('db', database)
  try {
    let tasks: readonly ScheduledTask[] | undefined
    try {
      tasks = await loadAppSchedule(cwd, Container.getInstance(), built)
    } catch (error) {
      throw new CommandError(`fw could not load the app's schedule: ${error instanceof Error ? error.message : String(error)}`)
    }
    return await work(tasks)
  } finally {
    await database.destroy()
  }
}

/**
 * A scheduler that logs as the app's server does, and runs a command task as `fw <command>` in a child process of
 * the app's folder: exactly as from a shell (its arguments checked, the app booted, its exit code), and a command
 * that crashes, calls process.exit() or leaks a handle cannot stop the other tasks.
 */
async function scheduler(tasks: readonly ScheduledTask[], cwd: string) {
  const [{ Scheduler }, { createLogger }, { runFwCommand }] = await Promise.all([
    import('../schedule/Scheduler.js'),
    import('../log/Logger.js'),
    import('../schedule/runFwCommand.js'),
  ])
  return new Scheduler(tasks, { logger: createLogger(), runCommand: (argv) => runFwCommand(argv, cwd) })
}

/** `fw schedule:work` */
export const scheduleWork: Command = {
  name: 'schedule:work',
  summary: 'Run the tasks of bootstrap/schedule.ts at their times, in the foreground',
  usage: 'schedule:work',
  details: [
    'Any number of schedulers may run at once, on one machine or many on one database: each time of a task is',
    'claimed in the table fw_schedule_runs, so it runs once. A time missed by more than a minute is skipped.',
    'Runs bootstrap/schedule.ts with TypeScript; in production (NODE_ENV or APP_ENV = production) its build.',
    'SIGTERM or SIGINT: starts no new run, lets the runs in flight finish, then exits 0.',
  ],
  async run({ cwd }) {
    return withSchedule(cwd, async (tasks) => {
      if (!tasks) throw new CommandError(NO_SCHEDULE)
      const running = await scheduler(tasks, cwd)
      console.log(`Fw scheduler ${process.pid}: ${tasks.length === 0 ? 'no tasks in the schedule' : tasks.map((task) => task.key).join(', ')}`)
      let signals = 0
      const onSignal = (signal: NodeJS.Signals) => {
        if (++signals > 1) process.exit(1)
        console.log(`[fw] ${signal}: finishing the scheduled runs in flight, then exiting`)
        void running.stop()
      }
      process.on('SIGTERM', onSignal).on('SIGINT', onSignal)
      const unwatch = onSupervisorGone(() => {
        console.log('[fw] fw start is gone: finishing the scheduled runs in flight, then exiting')
        void running.stop()
      })
      try {
        await running.run()
      } finally {
        unwatch()
        process.off('SIGTERM', onSignal).off('SIGINT', onSignal)
      }
      return 0
    })
  },
}

/** `fw schedule:run` */
export const scheduleRun: Command = {
  name: 'schedule:run',
  summary: 'Run the tasks due now, once (for the system cron, every minute)',
  usage: 'schedule:run',
  details: [
    "Runs each task's latest time of the last minute unless a scheduler has run it already, waits for the",
    'calls to return and the jobs to be queued, then exits. From cron: * * * * * cd /srv/app && npx fw schedule:run',
  ],
  async run({ cwd }) {
    return withSchedule(cwd, async (tasks) => {
      if (!tasks) throw new CommandError(NO_SCHEDULE)
      const results = await (await scheduler(tasks, cwd)).runDue()
      const ran = results.filter((result) => result.outcome !== 'taken')
      if (ran.length === 0) console.log('No task due.')
      return results.some((result) => result.outcome === 'failed') ? 1 : 0
    })
  },
}

/** `fw schedule:list` */
export const scheduleList: Command = {
  name: 'schedule:list',
  summary: 'List the tasks of bootstrap/schedule.ts, each with its next run',
  usage: 'schedule:list',
  async run({ cwd }) {
    return withSchedule(cwd, async (tasks) => {
      if (!tasks) {
        console.log(NO_SCHEDULE)
        return 0
      }
      if (tasks.length === 0) {
        console.log('No tasks in the schedule.')
        return 0
      }
      const now = new Date()
      const rows = tasks.map((task) => {
        const next = task.nextRun(now)
        return [task.key, task.expression, task.timezoneName, clock(next, 'UTC'), clock(next, task.timezoneName), task.overlaps ? 'no' : 'yes']
      })
      console.log(table(['Task', 'Cron', 'Timezone', 'Next run (UTC)', 'Next run (its zone)', 'Without overlapping'], rows))
      return 0
    })
  },
}

/** `2026-03-29 03:00:00`: a time as a clock in `zone` shows it. */
function clock(time: Date, zone: string): string {
  // Swedish writes dates and times the ISO way.
  return new Intl.DateTimeFormat('sv-SE', { timeZone: zone, dateStyle: 'short', timeStyle: 'medium' }).format(time)
}
