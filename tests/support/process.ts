import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'

/** The root of this checkout: package.json, dist/, template/, runtime/. */
export const checkoutRoot = fileURLToPath(new URL('../..', import.meta.url))

/** The built create-fw-app command (`npm install` at the root builds it). */
export const createFwApp = fileURLToPath(new URL('../../dist/index.js', import.meta.url))

export interface RunResult {
  code: number | null
  stdout: string
  stderr: string
}

export interface RunOptions {
  cwd: string
  env?: Record<string, string | undefined>
  /** Kill the command after this many milliseconds (default 10 minutes). */
  timeout?: number
}

/**
 * The environment for a command the tests run, without what vitest and the outer `npm test` set
 * (VITEST*, NODE_ENV, npm_lifecycle_*, npm_package_*), so that a nested `npm test` or vitest
 * behaves as in a user's terminal.
 */
export function cleanEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(VITEST|NODE_ENV$|TEST$|npm_lifecycle_|npm_package_|INIT_CWD$)/.test(key)) continue
    env[key] = value
  }
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key]
    else env[key] = value
  }
  return env
}

/** Runs a command to its end without a terminal (stdin closed) and resolves with its exit code and output. */
export function run(command: string, args: string[], options: RunOptions): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: cleanEnv(options.env),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeout ?? 600_000)
    child.once('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
    child.once('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
}

/** Runs a command and rejects, with its output, unless it exits 0. */
export async function runOk(command: string, args: string[], options: RunOptions): Promise<RunResult> {
  const result = await run(command, args, options)
  if (result.code !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited with ${result.code} in ${options.cwd}\n${result.stdout}\n${result.stderr}`)
  }
  return result
}

export interface RunningApp {
  /** `http://127.0.0.1:<port>` */
  url: string
  /** The process id of the command (to send it a signal, e.g. SIGHUP to `fw start`). */
  pid: number
  /** Everything the server printed so far. */
  output(): string
  /** SIGTERM, then waits for the process to exit. */
  stop(): Promise<void>
}

/**
 * Starts a server command (e.g. `node dist/public/index.js`) with HOST=127.0.0.1 and PORT=0, and
 * resolves with its URL once it prints `listening on <url>`; or, for a process that serves no URL (`fw queue:work`),
 * once its output matches `ready` (its url is then '').
 */
export function startServer(command: string, args: string[], options: RunOptions & { ready?: RegExp }): Promise<RunningApp> {
  const child: ChildProcess = spawn(command, args, {
    cwd: options.cwd,
    env: cleanEnv({ HOST: '127.0.0.1', PORT: '0', ...options.env }),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  let output = ''
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      // The whole process group: `npm start` runs node in a child of its own.
      try {
        process.kill(-child.pid!, 'SIGTERM')
      } catch {
        child.kill('SIGTERM')
      }
    }
    await exited
    // A grandchild that outlives its parent may still hold the pipes: never let them keep the test process alive.
    child.stdout!.destroy()
    child.stderr!.destroy()
  }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop()
      reject(new Error(`${command} ${args.join(' ')} did not listen within 60 s:\n${output}`))
    }, options.timeout ?? 60_000)
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const url = options.ready ? (options.ready.test(output) ? '' : undefined) : /listening on (http:\/\/\S+)/.exec(output)?.[1]
      if (url !== undefined) {
        clearTimeout(timer)
        resolve({ url, pid: child.pid!, output: () => output, stop })
      }
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`${command} ${args.join(' ')} exited with ${code} before listening:\n${output}`))
    })
  })
}
