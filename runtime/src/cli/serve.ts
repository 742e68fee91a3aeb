import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import type { Server } from 'node:http'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { isProduction } from '../config/environment.js'
import { FAILURE_OUTPUT_LIMIT, readAppFailure } from './appFailure.js'
import { CommandError, type Command, type CommandInput } from './Command.js'
import { closeFailureServer, failurePlace, serveFailure } from './failureServer.js'
import { watchApp } from './watchApp.js'

const ENTRY = 'public/index.ts'

/**
 * The app's environment: `.env` under the process's environment (which wins, as in `loadEnv`), then the PORT and
 * HOST flags over both. `.env` is read afresh on each call, so that `fw serve` restarts the app with its new values.
 */
export async function serverEnvironment(input: CommandInput, extra: Record<string, string> = {}): Promise<NodeJS.ProcessEnv> {
  const { readEnvFile } = await import('../config/loadEnv.js')
  const env: NodeJS.ProcessEnv = { ...readEnvFile(join(input.cwd, '.env')), ...process.env, ...extra }
  const port = input.values.port
  if (typeof port === 'string') {
    if (!/^\d+$/.test(port) || Number(port) > 65535) throw new CommandError(`Invalid port "${port}": use a whole number from 0 to 65535`)
    env.PORT = port
  }
  if (typeof input.values.host === 'string') env.HOST = input.values.host
  return env
}

function entry(cwd: string): string {
  const file = join(cwd, ENTRY)
  if (!existsSync(file)) throw new CommandError(`No ${ENTRY} in ${cwd}: run fw from your application's folder`)
  return file
}

/** Fails with one line when the port is taken, before any child starts. */
export async function checkPort(env: NodeJS.ProcessEnv): Promise<void> {
  const port = Number(env.PORT ?? 8000)
  const host = env.HOST ?? '127.0.0.1'
  if (port === 0) return
  await new Promise<void>((resolve, reject) => {
    const probe = createServer()
    probe.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new CommandError(`Port ${port} is already in use on ${host}; stop the other server or choose another port with --port`)
          : new CommandError(`Cannot listen on ${host}:${port}: ${error.message}`),
      ),
    )
    probe.listen(port, host, () => probe.close(() => resolve()))
  })
}

/** Frames kept in a stack trace in development: Node's 10 end inside the database driver, short of the app's route. */
const STACK_TRACE_LIMIT = 50

/** A running app: its process, and the end of what it wrote to stderr (when `fw serve` reads it). */
interface AppProcess {
  readonly child: ChildProcess
  /** The end of its stderr, once the process has exited and its stderr has ended (or half a second has passed). */
  stderr(): Promise<string>
}

/**
 * `node --conditions=development --import tsx public/index.ts`: the app's own entry, with TypeScript. The
 * `development` condition points the app's `#app/*` imports (package.json `imports`) at its TypeScript
 * sources; without it they name the build in dist/, as under fw start. With `readStderr`, its stderr passes
 * through this process, which keeps the end of it: why the app stopped, for the error page.
 */
function startApp(cwd: string, file: string, env: NodeJS.ProcessEnv, readStderr = false): AppProcess {
  const options = ['--conditions=development', `--stack-trace-limit=${STACK_TRACE_LIMIT}`, '--import', import.meta.resolve('tsx')]
  const child = spawn(process.execPath, [...options, file], { cwd, env, stdio: readStderr ? ['inherit', 'inherit', 'pipe'] : 'inherit' })
  if (!readStderr) return { child, stderr: async () => '' }
  let tail = ''
  const stream = child.stderr!
  stream.setEncoding('utf8')
  stream.on('data', (chunk: string) => {
    process.stderr.write(chunk)
    tail = (tail + chunk).slice(-FAILURE_OUTPUT_LIMIT)
  })
  // A process the app started may hold its stderr open after it exits: the error is written by then.
  const ended = new Promise<void>((resolve) => stream.once('end', resolve).once('error', () => resolve()))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  return { child, stderr: () => exited.then(() => Promise.race([ended, sleep(500)])).then(() => tail) }
}

export const serve: Command = {
  name: 'serve',
  summary: "Start the development server (polka), restarting it when the app's code or .env changes",
  usage: 'serve [--port=8000] [--host=127.0.0.1]',
  details: [
    'Runs public/index.ts with TypeScript; PORT and HOST from the environment or .env apply when no flag is given.',
    'APP_DEBUG is true (error details in 500 answers) unless .env or the environment sets it.',
    'Restarts when a .ts, .tsx, .mts, .cts, .js, .jsx, .mjs, .cjs or .json file of the app changes, or .env; never for',
    'tests (*.test.ts), dotfiles (editor swap files) or other files (uploads, SQLite databases, logs, CSS, images).',
    'It does not watch node_modules/, dist/, build/, coverage/, storage/, uploads/, logs/, tmp/, tests/, nor a folder',
    'whose name starts with a dot (.git/).',
    'With openapi-typescript installed (the api starter has it), .fw/api.d.ts is rewritten when the routes change.',
    'While the app cannot start (a syntax error), every request gets a 500 that names the file, line, column and',
    'message (an HTML page for a browser, {"error": ...} for JSON; no detail with APP_DEBUG=false), until a change',
    'restarts it.',
  ],
  options: { port: { type: 'string', short: 'p' }, host: { type: 'string' } },
  async run(input) {
    const file = entry(input.cwd)
    // Made again for each start, so that a restart for .env runs the app with its new values.
    const environment = async () => {
      const env = await serverEnvironment(input)
      delete env.FW_SERVER
      // The development server shows error details unless .env or the environment says otherwise.
      env.APP_DEBUG ??= 'true'
      // The development server prints a line per request, unless the environment says otherwise.
      env.LOG_REQUESTS ??= 'true'
      // A queue worker in the app's process, when QUEUE_DRIVER stores jobs: they run with no second terminal.
      env.FW_QUEUE_IN_PROCESS ??= '1'
      // .fw/api.d.ts rewritten when the routes' types change (with openapi-typescript installed).
      env.FW_API_TYPES ??= 'write'
      return env
    }
    let env = await environment()
    await checkPort(env)

    let app = startApp(input.cwd, file, env, true)
    let restarting = false
    let stopping = false
    let timer: NodeJS.Timeout | undefined
    // While the app is down: the server that answers with its error, until a change starts the app again.
    let failure: Promise<Server | undefined> | undefined
    // Restarts one after the other: a change saved while one starts waits for it.
    let starting = Promise.resolve()
    const running = () => app.child.exitCode === null && app.child.signalCode === null

    return new Promise<number>((resolve) => {
      const onExit = (stopped: AppProcess, code: number | null) => {
        if (stopping) return
        if (restarting) {
          restarting = false
          startAgain()
          return
        }
        console.error(`The app stopped (exit code ${code ?? 'none'}); fix it and save a file to restart it.`)
        failure = showFailure(stopped, code, env)
      }
      const showFailure = async (stopped: AppProcess, code: number | null, env: NodeJS.ProcessEnv) => {
        const found = readAppFailure(await stopped.stderr(), input.cwd, code)
        const port = Number(env.PORT ?? 8000)
        const host = env.HOST ?? '127.0.0.1'
        // PORT=0 gives each start a port of its own: there is no address to keep answering on.
        if (stopping || stopped !== app || port === 0) return undefined
        const debug = env.APP_DEBUG === 'true' && !isProduction(env)
        const server = await serveFailure(found, { root: input.cwd, host, port, debug })
        if (server) {
          const where = failurePlace(found)
          console.error(`http://${host.includes(':') ? `[${host}]` : host}:${port} answers every request with the error${where ? ` (${where})` : ''} until then.`)
        }
        return server
      }
      const startAgain = () => {
        starting = starting.then(async () => {
          if (stopping || running()) return
          const down = failure
          failure = undefined
          const server = await down
          if (server) await closeFailureServer(server)
          try {
            env = await environment()
          } catch (error) {
            console.error(`Could not restart the app: ${(error as Error).message}; fix it and save a file to restart it.`)
            return
          }
          if (stopping) return
          const started = startApp(input.cwd, file, env, true)
          app = started
          started.child.on('exit', (code) => onExit(started, code))
        })
      }
      const first = app
      first.child.on('exit', (code) => onExit(first, code))

      const watcher = watchApp(input.cwd, (changed) => {
        clearTimeout(timer)
        timer = setTimeout(() => {
          console.log(`${changed} changed: restarting`)
          if (!running()) {
            startAgain()
          } else {
            restarting = true
            app.child.kill('SIGTERM')
          }
        }, 100)
      })

      const stop = () => {
        stopping = true
        clearTimeout(timer)
        watcher.close()
      }
      const onSignal = (signal: NodeJS.Signals) => {
        stop()
        void failure?.then((server) => server && closeFailureServer(server))
        if (running()) {
          app.child.once('exit', () => resolve(0))
          app.child.kill(signal)
        } else {
          resolve(0)
        }
      }
      process.once('SIGINT', onSignal).once('SIGTERM', onSignal)
    })
  },
}

export const serveNode: Command = {
  name: 'serve:node',
  summary: 'Start the app on the plain node:http server, without reload',
  usage: 'serve:node [--port=8000] [--host=127.0.0.1]',
  options: { port: { type: 'string', short: 'p' }, host: { type: 'string' } },
  async run(input) {
    const file = entry(input.cwd)
    const env = await serverEnvironment(input, { FW_SERVER: 'node' })
    env.APP_DEBUG ??= 'true'
    env.FW_QUEUE_IN_PROCESS ??= '1'
    env.FW_API_TYPES ??= 'write'
    const { child } = startApp(input.cwd, file, env)
    const forward = (signal: NodeJS.Signals) => child.kill(signal)
    process.on('SIGINT', forward).on('SIGTERM', forward)
    return new Promise<number>((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 0 : 1))))
  },
}
