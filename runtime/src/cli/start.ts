import cluster, { type Worker } from 'node:cluster'
import { existsSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import type { WorkerMessage } from '../server/start.js'
import { CommandError, type Command } from './Command.js'
import { checkPort, serverEnvironment } from './serve.js'

const ENTRY = 'dist/public/index.js'
/** A worker that dies before it listens is started again after this long, so that a broken app does not spin. */
const RETRY_DELAY = 1_000

function workerCount(value: string | boolean | undefined, name = 'workers', none = 1): number {
  if (value === undefined) return none
  if (value === 'auto') return availableParallelism()
  if (typeof value === 'string' && /^[1-9]\d*$/.test(value)) return Number(value)
  throw new CommandError(`Invalid --${name} "${String(value)}": use a whole number from 1, or auto for one per CPU`)
}

export const start: Command = {
  name: 'start',
  summary: 'Start the built app for production: node:cluster workers, replaced when one dies',
  usage: 'start [--workers=1|N|auto] [--queue-workers=N|auto] [--scheduler] [--port=8000] [--host=127.0.0.1]',
  details: [
    `Runs ${ENTRY} (npm run build first) in N workers sharing one port; NODE_ENV defaults to production.`,
    'A worker that dies is logged and replaced at once. SIGHUP replaces the workers one by one (a new one listens',
    'before the old one drains), and the queue workers and scheduler (the old ones finish their work in flight);',
    'SIGTERM or SIGINT lets every request in flight finish, then exits 0.',
    'Run it directly (npx fw start, or your process manager), not through npm start: npm does not pass signals on.',
    '--queue-workers=N also runs N fw queue:work processes (QUEUE_DRIVER=database, the default), each replaced when',
    'it dies; SIGTERM lets them finish their jobs in flight. Without it, a build with jobs is started with a warning.',
    '--scheduler also runs one fw schedule:work process (bootstrap/schedule.ts), replaced when it dies; run it on',
    'as many machines as you like: each time of a task runs once. SIGTERM lets its runs in flight finish.',
  ],
  options: { workers: { type: 'string', short: 'w' }, 'queue-workers': { type: 'string' }, scheduler: { type: 'boolean' }, port: { type: 'string', short: 'p' }, host: { type: 'string' } },
  async run(input) {
    const count = workerCount(input.values.workers)
    const queueWorkers = workerCount(input.values['queue-workers'], 'queue-workers', 0)
    const file = join(input.cwd, ENTRY)
    if (!existsSync(file)) throw new CommandError(`No ${ENTRY} in ${input.cwd}: run npm run build first`)
    const env = await serverEnvironment(input)
    env.NODE_ENV ??= 'production'
    const { queueDriverName } = await import('../queue/driverName.js')
    const queueDriver = queueDriverName(env)
    if (queueWorkers > 0 && queueDriver === 'sync') {
      throw new CommandError('--queue-workers runs the jobs a queue stores, and QUEUE_DRIVER=sync runs each at dispatch: set QUEUE_DRIVER=database')
    }
    await checkPort(env)
    if (queueWorkers === 0 && queueDriver !== 'sync') await warnOfWaitingJobs(input.cwd, queueDriver)
    const { appRoot } = await import('../config/appRoot.js')
    const { reportMissingSettings } = await import('../config/reportMissingSettings.js')
    reportMissingSettings(appRoot(input.cwd), env)
    cluster.setupPrimary({ exec: file, args: [], cwd: input.cwd })
    const { superviseCommandWorkers } = await import('./commandWorkers.js')
    const beside = [
      queueWorkers > 0 ? superviseCommandWorkers({ command: 'queue:work', count: queueWorkers, label: 'queue worker' }, input.cwd, env) : undefined,
      input.values.scheduler === true ? superviseCommandWorkers({ command: 'schedule:work', count: 1, label: 'scheduler' }, input.cwd, env) : undefined,
    ]
    const code = await supervise(count, env)
    await Promise.all(beside.map((workers) => workers?.stop()))
    return code
  },
}

/**
 * When the build has jobs or mail classes (a mail sent is a job) and the queue keeps them for a worker, says that none
 * runs here: a job dispatched by this server would otherwise wait without a word. Workers elsewhere (`fw queue:work`
 * on another machine) are fine.
 */
async function warnOfWaitingJobs(cwd: string, driver: string): Promise<void> {
  const [{ jobsFolder, mailFolder }, { jobModules }] = await Promise.all([import('../queue/appJobs.js'), import('../queue/jobModules.js')])
  if (jobModules(jobsFolder(cwd, true)).length === 0 && jobModules(mailFolder(cwd, true)).length === 0) return
  console.warn(
    `[fw] QUEUE_DRIVER=${driver} keeps the app's jobs for a worker, and none runs here: add --queue-workers=N, run fw queue:work beside it, or set QUEUE_DRIVER=sync to run each at dispatch`,
  )
}

/** Runs `count` workers until SIGTERM or SIGINT; resolves to the exit code. */
function supervise(count: number, env: NodeJS.ProcessEnv): Promise<number> {
  const listening = new Set<Worker>()
  /** Workers that were replaced (or are being): their exit is expected. */
  const retiring = new Set<Worker>()
  let started = false
  let stopping = false
  let rolling = false

  return new Promise<number>((resolve) => {
    const fork = (): Worker => {
      const worker = cluster.fork(env)
      worker.on('listening', (address) => {
        listening.add(worker)
        if (!started && listening.size === count) {
          started = true
          const host = address.addressType === 6 ? `[${address.address}]` : address.address
          console.log(`Fw listening on http://${host}:${address.port} (${count} worker${count === 1 ? '' : 's'}, primary ${process.pid})`)
        }
      })
      worker.on('message', (message: WorkerMessage) => {
        if (message?.fw === 'fatal' && !stopping) {
          console.error(`[fw] worker ${worker.process.pid} hit an uncaught error: starting its replacement`)
          replace(worker)
        }
      })
      worker.on('exit', (code, signal) => {
        const wasListening = listening.delete(worker)
        if (stopping) {
          if (Object.keys(cluster.workers ?? {}).length === 0) resolve(0)
          return
        }
        if (retiring.delete(worker)) return
        const how = signal ? `signal ${signal}` : `exit code ${code}`
        if (!started) {
          console.error(`[fw] worker ${worker.process.pid} stopped before listening (${how}): the app did not start`)
          stopAll()
          stopping = true
          resolve(1)
          return
        }
        console.error(`[fw] worker ${worker.process.pid} died (${how}): starting a replacement`)
        if (wasListening) fork()
        else setTimeout(() => stopping || fork(), RETRY_DELAY)
      })
      return worker
    }

    /** Starts a new worker and drains `old` once the new one listens; resolves when `old` has exited. */
    const replace = (old: Worker): Promise<void> => {
      retiring.add(old)
      const exited = new Promise<void>((done) => (old.isDead() ? done() : old.once('exit', () => done())))
      fork().once('listening', () => send(old, 'drain'))
      return exited
    }

    const stopAll = () => {
      for (const worker of Object.values(cluster.workers ?? {})) if (worker) send(worker, 'drain')
    }

    process.on('SIGHUP', () => {
      if (stopping || rolling || !started) return
      rolling = true
      console.log('[fw] SIGHUP: replacing the workers one by one')
      void (async () => {
        for (const worker of [...listening]) if (!stopping) await replace(worker)
        rolling = false
        if (!stopping) console.log('[fw] every worker replaced')
      })()
    })
    const onStop = (signal: NodeJS.Signals) => {
      if (stopping) return
      stopping = true
      console.log(`[fw] ${signal}: finishing the requests in flight, then exiting`)
      if (Object.keys(cluster.workers ?? {}).length === 0) resolve(0)
      stopAll()
    }
    process.on('SIGTERM', onStop).on('SIGINT', onStop)

    for (let i = 0; i < count; i++) fork()
  })
}

function send(worker: Worker, fw: WorkerMessage['fw']): void {
  if (worker.isConnected()) worker.send({ fw } satisfies WorkerMessage)
}
