import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  url: string
  stop(): Promise<void>
}

const root = fileURLToPath(new URL('..', import.meta.url))

/**
 * Starts the application the way `npm run dev` does (public/index.ts, with the `development` condition that points
 * #app/* imports at the TypeScript sources) on a free port of 127.0.0.1, and resolves once it listens. `env` adds to
 * (or overrides) the environment, whose DATABASE_URL is the tests' own database (tests/database.ts).
 *
 * @example
 * ```ts
 * const server = await startServer({ APP_DEBUG: 'false' })
 * const response = await fetch(`${server.url}/hello`)
 * await server.stop()
 * ```
 */
export function startServer(env: NodeJS.ProcessEnv = {}): Promise<TestServer> {
  const child = spawn(process.execPath, ['--conditions=development', '--import', 'tsx', 'public/index.ts'], {
    cwd: root,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
    await exited
  }

  return new Promise((resolve, reject) => {
    let output = ''
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1]
      if (url) resolve({ url, stop })
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.once('exit', (code) => reject(new Error(`The server exited with code ${code} before listening:\n${output}`)))
  })
}
