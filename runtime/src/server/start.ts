import cluster from 'node:cluster'
import { appRoot } from '../config/appRoot.js'
import { reportMissingSettings } from '../config/reportMissingSettings.js'
import type { Router } from '../routing/Router.js'
import type { RequestListener } from './createRequestHandler.js'
import { PortInUseError, type RunningServer, type ServeOptions } from './listen.js'
import { reportBuildImports } from './reportBuildImports.js'
import { serve } from './serve.js'
import { serveNode } from './serveNode.js'

/** Milliseconds a drained worker keeps reading the primary's messages before it exits. */
const HANDOFF_GRACE = 250

/**
 * What an `fw start` worker and its primary tell each other: a worker hit an uncaught error (`fatal`: start my
 * replacement), or the primary asks a worker to stop taking connections, finish its requests and exit (`drain`).
 */
export interface WorkerMessage {
  fw: 'fatal' | 'drain'
}

/**
 * Starts an application's server the way `fw serve`, `fw serve:node`, `fw start` and `node dist/public/index.js`
 * expect: port from `PORT` (default 8000), host from `HOST` (default 127.0.0.1), polka unless `FW_SERVER=node`.
 * Prints the URL; a port in use is one line on stderr and exit code 1.
 *
 * An uncaught error or unhandled rejection anywhere in the process is logged and the server drains: it stops
 * accepting, lets the requests in flight finish, and the process exits 1. Under `fw start` the primary first
 * starts a replacement worker, so the port keeps answering.
 *
 * @example
 * ```ts
 * await start(router)
 * ```
 */
export async function start(target: Router | RequestListener, options: ServeOptions = {}): Promise<RunningServer> {
  const port = options.port ?? (process.env.PORT ? Number(process.env.PORT) : 8000)
  const host = options.host ?? process.env.HOST ?? '127.0.0.1'
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`Invalid port "${process.env.PORT}": use a whole number from 0 to 65535`)
    process.exit(1)
  }
  // Under fw start the primary reports once; its workers would repeat it each.
  if (!cluster.isWorker) {
    const root = appRoot()
    reportMissingSettings(root)
    reportBuildImports(root)
  }
  const useNode = process.env.FW_SERVER === 'node'
  const queueWorker = process.env.FW_QUEUE_IN_PROCESS === '1' && !cluster.isWorker ? await inProcessWorker() : undefined
  let running: RunningServer
  try {
    const handleSignals = queueWorker ? false : options.handleSignals
    running = await (useNode ? serveNode : serve)(target, { ...options, port, host, handleSignals })
  } catch (error) {
    if (error instanceof PortInUseError) {
      console.error(error.message)
      process.exit(1)
    }
    throw error
  }
  if (cluster.isWorker) {
    followPrimary(running, options.shutdownTimeout ?? 10_000)
  } else {
    console.log(`Fw ${useNode ? '(node:http) ' : ''}listening on ${running.url}${queueWorker ? ' (with a queue worker)' : ''}`)
    exitOnFatalError(running)
  }
  if (queueWorker) {
    // The server's requests and the worker's jobs in flight both finish before the process exits.
    const onSignal = () => void Promise.all([running.close(), queueWorker.stop()]).then(() => process.exit(0))
    process.once('SIGTERM', onSignal).once('SIGINT', onSignal)
  }
  return running
}

/** The worker `fw serve` runs beside the server, loaded only when asked for. */
async function inProcessWorker(): Promise<{ stop(): Promise<void> } | undefined> {
  const { startInProcessWorker } = await import('../queue/inProcessWorker.js')
  return startInProcessWorker(appRoot())
}

/** Outside fw start: an uncaught error is logged, the server drains, and the process exits 1. */
function exitOnFatalError(running: RunningServer): void {
  const onFatal = (error: unknown) => {
    console.error('[fw] uncaught error; finishing the requests in flight, then exiting:', error)
    void running.close().then(() => process.exit(1))
  }
  process.on('uncaughtException', onFatal).on('unhandledRejection', onFatal)
}

/**
 * An fw start worker: SIGHUP is the primary's business; `drain` from the primary stops this worker; an uncaught
 * error asks the primary for a replacement, which sends `drain` once it listens (or this worker drains by itself
 * after `timeout`, should the replacement never come).
 */
function followPrimary(running: RunningServer, timeout: number): void {
  let exitCode = 0
  // The primary may have handed this worker a connection just before it saw the server close: such a handoff is
  // refused (and passed to another worker) only while this process still reads its messages. Exiting at once
  // would strand that connection in the primary, unanswered.
  const drain = () => void running.close().then(() => setTimeout(() => process.exit(exitCode), HANDOFF_GRACE))
  process.on('SIGHUP', () => undefined)
  process.on('message', (message: WorkerMessage) => {
    if (message?.fw === 'drain') drain()
  })
  const onFatal = (error: unknown) => {
    console.error(`[fw] worker ${process.pid}: uncaught error; draining once its replacement listens:`, error)
    if (exitCode !== 0) return
    exitCode = 1
    process.send?.({ fw: 'fatal' } satisfies WorkerMessage)
    setTimeout(drain, timeout).unref()
  }
  process.on('uncaughtException', onFatal).on('unhandledRejection', onFatal)
}
