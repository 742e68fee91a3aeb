import { join } from 'node:path'
import type { Kysely } from 'kysely'
import { QUEUE_NAME } from '../queue/pendingJob.js'
import type { StoredQueue } from '../queue/types.js'
import { CommandError, type Command } from './Command.js'
import { onSupervisorGone } from './supervisorGone.js'
import { table } from './table.js'

/**
 * The application's stored queue (its `.env` read first), handed to `work`, then closed. A driver that stores no
 * job (`sync`) is one line saying what to set.
 */
async function withQueue<T>(cwd: string, work: (queue: StoredQueue, database: Kysely<any>) => Promise<T>, { worker = false } = {}): Promise<T> {
  const [{ loadEnv }, { queue }, { Container }, { createDatabase }] = await Promise.all([
    import('../config/loadEnv.js'),
    import('../queue/queue.js'),
    import('../container/Container.js'),
    import('../database/createDatabase.js'),
  ])
  loadEnv(join(cwd, '.env'))
  let stored: StoredQueue
  try {
    stored = queue.stored({ worker })
  } catch (error) {
    throw new CommandError((error as Error).message)
  }
  // The app's database, for the queue and for the jobs' own db(): the one of its folder, wherever fw is installed.
  const database = createDatabase(process.env.DATABASE_URL, cwd)
  Container.getInstance().instance('db', database)
  try {
    return await work(stored, database)
  } finally {
    await stored.close?.()
    await database.destroy()
  }
}

/** A whole number from 1, or undefined when the option is not given. */
function count(name: string, value: string | boolean | undefined): number | undefined {
  if (value === undefined) return undefined
  if (typeof value === 'string' && /^[1-9]\d*$/.test(value)) return Number(value)
  throw new CommandError(`Invalid --${name} "${String(value)}": use a whole number from 1`)
}

function queueNames(value: string | boolean | undefined): string[] {
  if (value === undefined) return ['default']
  const names = String(value)
    .split(',')
    .map((name) => name.trim())
  const wrong = names.find((name) => !QUEUE_NAME.test(name))
  if (wrong !== undefined) throw new CommandError(`Invalid --queue "${String(value)}": name queues with letters, digits and _ . -, separated by commas`)
  return names
}

/** `fw queue:work [--queue=a,b] [--concurrency=N] [--once] [--max-jobs=N] [--max-time=S]` */
export const queueWork: Command = {
  name: 'queue:work',
  summary: 'Run the jobs of the queue as they come (QUEUE_DRIVER=database)',
  usage: 'queue:work [--queue=default] [--concurrency=1] [--once] [--max-jobs=N] [--max-time=S] [--force]',
  details: [
    '--queue        the queues to take jobs from, the first first (a,b: b only when a has none due)',
    '--concurrency  jobs run at once in this process',
    '--once         run the next job due, then exit; --max-jobs and --max-time stop after so many jobs or seconds',
    '--force        keep taking jobs while the app is down (fw down); by default the worker pauses until fw up',
    'Runs App/Jobs with TypeScript; in production (NODE_ENV or APP_ENV = production) the build, dist/App/Jobs.',
    'SIGTERM or SIGINT: takes no new job, lets the jobs in flight finish, then exits 0; a second one exits at once',
    '(the jobs it was running run again once their lease expires: within about 30 s on SQLite, 40 s on PostgreSQL).',
  ],
  options: {
    queue: { type: 'string', short: 'q' },
    concurrency: { type: 'string', short: 'c' },
    once: { type: 'boolean' },
    'max-jobs': { type: 'string' },
    'max-time': { type: 'string' },
    force: { type: 'boolean' },
  },
  async run({ values, cwd }) {
    const options = {
      queues: queueNames(values.queue),
      concurrency: count('concurrency', values.concurrency) ?? 1,
      once: values.once === true,
      maxJobs: count('max-jobs', values['max-jobs']),
      maxTime: count('max-time', values['max-time']),
    }
    return withQueue(cwd, async (queue, database) => {
      const [{ isProduction }, { bootAppJobs }, { Worker }, { Container }, { createLogger }, { watchQueueRestart }] = await Promise.all([
        import('../config/environment.js'),
        import('../queue/appJobs.js'),
        import('../queue/Worker.js'),
        import('../container/Container.js'),
        import('../log/Logger.js'),
        import('../queue/queueRestarts.js'),
      ])
      const built = isProduction()
      if (!built) await import('./loadTypeScript.js').then(({ loadTypeScript }) => loadTypeScript())
      let jobs
      try {
        jobs = await bootAppJobs(cwd, Container.getInstance(), built)
      } catch (error) {
        throw new CommandError(`fw queue:work could not load the app (bootstrap/app.ts, its routes and jobs): ${error instanceof Error ? error.message : String(error)}`)
      }
      const paused = values.force === true ? undefined : await import('../maintenance/pauseWhileDown.js').then(({ pauseWhileDown }) => pauseWhileDown(database))
      const worker = new Worker(queue, jobs, { ...options, paused, logger: createLogger({ buffered: true }) })
      // The app's jobs and Fw's own (SendQueuedMail), which every worker runs.
      const names = [...jobs.keys()].sort()
      console.log(`Fw queue worker ${worker.id} on ${options.queues.join(', ')} (concurrency ${options.concurrency}): ${names.join(', ')}`)
      let signals = 0
      const onSignal = (signal: NodeJS.Signals) => {
        if (++signals > 1) process.exit(1)
        console.log(`[fw] ${signal}: finishing the jobs in flight, then exiting`)
        worker.stop()
      }
      process.on('SIGTERM', onSignal).on('SIGINT', onSignal)
      const unwatch = onSupervisorGone(() => {
        console.log('[fw] fw start is gone: finishing the jobs in flight, then exiting')
        worker.stop()
      })
      const restarts = options.once
        ? undefined
        : await watchQueueRestart(database, () => {
            console.log('[fw] fw queue:restart: finishing the jobs in flight, then exiting')
            worker.stop('restart')
          })
      try {
        const reason = await worker.run()
        if (reason !== 'stopped') console.log(`Stopped (${reason}) after ${worker.processed} job${worker.processed === 1 ? '' : 's'}.`)
      } finally {
        restarts?.stop()
        unwatch()
        process.off('SIGTERM', onSignal).off('SIGINT', onSignal)
      }
      return 0
    }, { worker: true })
  },
}

/** `fw queue:failed` */
export const queueFailed: Command = {
  name: 'queue:failed',
  summary: 'List the failed jobs, with what they threw',
  usage: 'queue:failed',
  details: ['A job fails once its attempts are spent; fw queue:retry <id|all> runs it again, fw queue:flush deletes them.'],
  async run({ cwd }) {
    return withQueue(cwd, async (queue) => {
      const failed = await queue.failed()
      if (failed.length === 0) {
        console.log('No failed jobs.')
        return 0
      }
      const rows = failed.map((job) => [
        job.id,
        job.queue,
        job.name,
        String(job.attempts),
        job.failedAt.toISOString().slice(0, 19).replace('T', ' '),
        `${job.error.name}: ${job.error.message.split('\n')[0]}`,
      ])
      console.log(table(['ID', 'Queue', 'Job', 'Attempts', 'Failed at (UTC)', 'Error'], rows))
      return 0
    })
  },
}

/** `fw queue:retry <id|all>` */
export const queueRetry: Command = {
  name: 'queue:retry',
  summary: 'Put a failed job (or all of them) back on its queue',
  usage: 'queue:retry <id|all>',
  details: ['The job gets its attempts afresh. A unique job whose twin already waits stays failed: the waiting one does its work.'],
  arguments: 1,
  async run({ positionals, cwd }) {
    const [target] = positionals as [string]
    if (target !== 'all' && !/^[\w-]{1,64}$/.test(target)) throw new CommandError(`Invalid job id "${target}": give the ID fw queue:failed lists, or all`)
    return withQueue(cwd, async (queue) => {
      const failed = await queue.failed()
      if (target !== 'all' && !failed.some((job) => job.id === target)) throw new CommandError(`No failed job ${target}: fw queue:failed lists them`)
      const retried = await queue.retry(target === 'all' ? 'all' : [target])
      const expected = target === 'all' ? failed.length : 1
      console.log(retried === 0 && expected === 0 ? 'No failed jobs.' : `Queued ${retried} failed job${retried === 1 ? '' : 's'} again.`)
      if (retried < expected) console.log(`${expected - retried} stayed failed: a unique job of the same key already waits.`)
      return 0
    })
  },
}

/** `fw queue:flush` */
export const queueFlush: Command = {
  name: 'queue:flush',
  summary: 'Delete every failed job',
  usage: 'queue:flush',
  async run({ cwd }) {
    return withQueue(cwd, async (queue) => {
      const deleted = await queue.flush()
      console.log(deleted === 0 ? 'No failed jobs.' : `Deleted ${deleted} failed job${deleted === 1 ? '' : 's'}.`)
      return 0
    })
  },
}

/** `fw queue:restart` */
export const queueRestart: Command = {
  name: 'queue:restart',
  summary: 'Tell every queue worker to finish its jobs in flight and exit, to be started again on the new code',
  usage: 'queue:restart',
  details: [
    'Every fw queue:work on this database sees it within a few seconds, finishes the jobs it runs and exits 0: fw start',
    'starts new ones at once; your process manager restarts the others. Run it after a deploy (fw start also replaces',
    'its queue workers and scheduler on SIGHUP).',
  ],
  async run({ cwd }) {
    const [{ withDatabase }, { signalQueueRestart }] = await Promise.all([import('./withDatabase.js'), import('../queue/queueRestarts.js')])
    await withDatabase('queue:restart', cwd, (database) => signalQueueRestart(database))
    console.log('Told the queue workers to restart once their jobs in flight are done.')
    return 0
  },
}
