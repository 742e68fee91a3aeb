import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { stripVTControlCharacters } from 'node:util'

const tsx = fileURLToPath(new URL('../../../node_modules/tsx/dist/cli.mjs', import.meta.url))

/** A fixture app (`test/fixtures/*.ts`, which calls `start()`) running in a process of its own. */
export interface FixtureServer {
  url: string
  /** Everything it printed so far, stdout and stderr, without colours. */
  output(): string
  /** Resolves once the output passes the check (at most 10 s): for log lines written after the response went out. */
  waitFor(check: (output: string) => boolean): Promise<string>
  stop(): Promise<void>
}

/**
 * Starts a fixture app on a free port of 127.0.0.1 with the given environment (NODE_ENV, APP_ENV, LOG_REQUESTS,
 * LOG_FORMAT, FW_SERVER and VITEST only when given), and resolves once it listens: a server with a process and an
 * event loop of its own, as `fw serve` and `fw start` run it.
 *
 * @example
 * ```ts
 * const app = await startFixture('log-server.ts', { NODE_ENV: 'production', FW_SERVER: 'node' })
 * ```
 */
export function startFixture(name: string, env: Record<string, string> = {}): Promise<FixtureServer> {
  const file = fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url))
  const base: NodeJS.ProcessEnv = { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env }
  for (const key of ['NODE_ENV', 'APP_ENV', 'LOG_REQUESTS', 'LOG_FORMAT', 'FW_SERVER', 'VITEST']) if (!(key in env)) delete base[key]
  const child: ChildProcess = spawn(process.execPath, [tsx, file], { env: base, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk))
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1]
      if (url) {
        clearInterval(timer)
        const printed = () => stripVTControlCharacters(output)
        const waitFor = async (check: (output: string) => boolean) => {
          for (let i = 0; i < 500 && !check(printed()); i++) await new Promise((wake) => setTimeout(wake, 20))
          if (!check(printed())) throw new Error(`the fixture never printed what the test waits for:\n${printed()}`)
          return printed()
        }
        resolve({ url, output: printed, waitFor, stop: async () => (child.kill('SIGTERM'), await exited) })
      }
    }, 20)
    child.once('exit', (code) => {
      clearInterval(timer)
      reject(new Error(`exited with ${code}: ${output}`))
    })
  })
}

/** The JSON lines printed so far, parsed. */
export function jsonLines(output: string): Record<string, any>[] {
  return output.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line))
}
