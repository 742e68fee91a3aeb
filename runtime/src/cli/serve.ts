import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, readdirSync, watch, type FSWatcher } from 'node:fs'
import { createServer } from 'node:net'
import { join, relative } from 'node:path'
import { CommandError, type Command, type CommandInput } from './Command.js'

const ENTRY = 'public/index.ts'
/** Folders and files whose changes never restart the server: dependencies, output, the SQLite database. */
const IGNORED_FOLDERS = new Set(['node_modules', '.git', 'dist', 'build', 'coverage'])
const IGNORED_FILE = /\.(sqlite|sqlite3|db)(-journal|-wal|-shm)?$|\.log$|~$|\.swp$/

/** PORT and HOST for the app: flags win over the environment and `.env`. */
export async function serverEnvironment(input: CommandInput, extra: Record<string, string> = {}): Promise<NodeJS.ProcessEnv> {
  const { loadEnv } = await import('../config/loadEnv.js')
  loadEnv(join(input.cwd, '.env'))
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra }
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

/**
 * `node --conditions=development --import tsx public/index.ts`: the app's own entry, with TypeScript. The
 * `development` condition points the app's `#app/*` imports (package.json `imports`) at its TypeScript
 * sources; without it they name the build in dist/, as under fw start.
 */
function startApp(cwd: string, file: string, env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, ['--conditions=development', '--import', import.meta.resolve('tsx'), file], { cwd, env, stdio: 'inherit' })
}

/** Calls `onChange` for any file of the app that changes, except the ignored ones. */
function watchApp(cwd: string, onChange: (file: string) => void): () => void {
  const watchers = new Map<string, FSWatcher>()
  const add = (folder: string) => {
    if (watchers.has(folder)) return
    try {
      const watcher = watch(folder, (_event, name) => {
        if (!name) return
        const path = join(folder, name.toString())
        if (IGNORED_FILE.test(path)) return
        if (existsSync(path) && !IGNORED_FOLDERS.has(name.toString())) scan(path)
        onChange(relative(cwd, path))
      })
      watcher.on('error', () => {
        watcher.close()
        watchers.delete(folder)
      })
      watchers.set(folder, watcher)
    } catch {
      return
    }
    scan(folder)
  }
  const scan = (folder: string) => {
    let entries
    try {
      entries = readdirSync(folder, { withFileTypes: true })
    } catch {
      return
    }
    for (const entry of entries) {
      if (entry.isDirectory() && !IGNORED_FOLDERS.has(entry.name)) add(join(folder, entry.name))
    }
  }
  add(cwd)
  return () => {
    for (const watcher of watchers.values()) watcher.close()
  }
}

export const serve: Command = {
  name: 'serve',
  summary: 'Start the development server (polka), restarting it when a file changes',
  usage: 'serve [--port=8000] [--host=127.0.0.1]',
  details: [
    'Runs public/index.ts with TypeScript; PORT and HOST from the environment or .env apply when no flag is given.',
    'APP_DEBUG is true (error details in 500 answers) unless .env or the environment sets it.',
  ],
  options: { port: { type: 'string', short: 'p' }, host: { type: 'string' } },
  async run(input) {
    const file = entry(input.cwd)
    const env = await serverEnvironment(input)
    delete env.FW_SERVER
    // The development server shows error details unless .env or the environment says otherwise.
    env.APP_DEBUG ??= 'true'
    // The development server prints a line per request, unless the environment says otherwise.
    env.LOG_REQUESTS ??= 'true'
    await checkPort(env)

    let child = startApp(input.cwd, file, env)
    let restarting = false
    let stopping = false
    let timer: NodeJS.Timeout | undefined

    return new Promise<number>((resolve) => {
      const onExit = (code: number | null) => {
        if (stopping) return
        if (restarting) {
          restarting = false
          child = startApp(input.cwd, file, env)
          child.on('exit', onExit)
          return
        }
        console.error(`The app stopped (exit code ${code ?? 'none'}); fix it and save a file to restart it.`)
      }
      child.on('exit', onExit)

      const unwatch = watchApp(input.cwd, (changed) => {
        clearTimeout(timer)
        timer = setTimeout(() => {
          console.log(`${changed} changed: restarting`)
          if (child.exitCode !== null || child.signalCode !== null) {
            child = startApp(input.cwd, file, env)
            child.on('exit', onExit)
          } else {
            restarting = true
            child.kill('SIGTERM')
          }
        }, 100)
      })

      const stop = () => {
        stopping = true
        clearTimeout(timer)
        unwatch()
      }
      const onSignal = (signal: NodeJS.Signals) => {
        stop()
        if (child.exitCode === null && child.signalCode === null) {
          child.once('exit', () => resolve(0))
          child.kill(signal)
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
    const child = startApp(input.cwd, file, env)
    const forward = (signal: NodeJS.Signals) => child.kill(signal)
    process.on('SIGINT', forward).on('SIGTERM', forward)
    return new Promise<number>((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 0 : 1))))
  },
}
