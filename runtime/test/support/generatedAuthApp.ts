// A generated app of fw make:auth for the tests that drive it over real HTTP (make-auth-reset, make-auth-verify,
// make-dash-http): made from this checkout with the starters' test support, started as `npm run dev` starts it, on
// SQLite or PostgreSQL, and a client that keeps cookies as a browser does.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { stripVTControlCharacters } from 'node:util'
import { expect } from 'vitest'
import { cleanEnv, createFwApp, type FwApp } from './fwApp.js'
import { startPostgres } from './postgres.js'
import type { ReceivedMail } from './smtpServer.js'

export const checkout = fileURLToPath(new URL('../../../', import.meta.url))
export const PASSWORD = 'correct horse battery staple'
export const APP_URL = 'http://app.example.test'
export const KEY = `base64:${Buffer.alloc(32, 9).toString('base64')}`
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']

/** A client that keeps cookies as a browser does, and follows no redirect. */
export class Browser {
  private readonly cookies = new Map<string, string>()
  constructor(private readonly base: string) {}

  get(path: string, accept = 'text/html'): Promise<Response> {
    return this.send(path, { headers: { accept } })
  }

  json(method: string, path: string, body?: object, token?: string): Promise<Response> {
    return this.send(path, {
      method,
      headers: { accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    })
  }

  /** Posts a form as a browser does, with only the fields given (no CSRF token unless one is among them). */
  post(path: string, fields: Record<string, string>): Promise<Response> {
    return this.send(path, {
      method: 'POST',
      headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    })
  }

  /** GETs a page with a form and posts it back with the form's CSRF token. */
  async submit(formPage: string, action: string, fields: Record<string, string>): Promise<Response> {
    const page = await (await this.get(formPage)).text()
    const token = /name="_token" value="([^"]+)"/.exec(page)?.[1]
    if (!token) throw new Error(`${formPage} has no _token field:\n${page}`)
    return this.post(action, { _token: token, ...fields })
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name)
  }

  /** Signs this client in as another one is: its cookies, for a second server of the same application. */
  copyCookies(other: Browser): void {
    for (const [name, value] of other.cookies) this.cookies.set(name, value)
  }

  private async send(path: string, init: RequestInit): Promise<Response> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
    const response = await fetch(this.base + path, { ...init, redirect: 'manual', headers: { ...(init.headers as object), ...(cookie ? { cookie } : {}) } })
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';')
      const at = pair.indexOf('=')
      if (/Max-Age=0/i.test(line)) this.cookies.delete(pair.slice(0, at))
      else this.cookies.set(pair.slice(0, at), pair.slice(at + 1))
    }
    return response
  }
}

/** A message's text as sent: quoted-printable soft breaks and escapes undone. */
export function decoded(mail: ReceivedMail): string {
  return mail.raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
}

/** `tsc -p .` in the app, as the starters check it: what it printed (nothing when it passes) and its exit status. */
export function typeCheck(app: FwApp): { output: string; status: number | null } {
  const tsc = spawnSync(process.execPath, [join(checkout, 'node_modules/typescript/bin/tsc'), '-p', '.'], { cwd: app.dir, encoding: 'utf8' })
  return { output: tsc.stdout + tsc.stderr, status: tsc.status }
}

/** The app's own tests in `files`, run by its vitest: what it printed (without colours) and its exit status. */
export function runOwnTests(app: FwApp, files: string[]): { output: string; status: number | null } {
  const run = spawnSync(process.execPath, [join(checkout, 'node_modules/vitest/vitest.mjs'), 'run', ...files], { cwd: app.dir, env: cleanEnv({ CI: '1' }), encoding: 'utf8' })
  return { output: stripVTControlCharacters(run.stdout + run.stderr), status: run.status }
}

/** The databases these tests run on: SQLite (the app's file), and a PostgreSQL server of the test's own. */
export const BACKENDS: { name: string; start(): Promise<{ env: NodeJS.ProcessEnv; stop(): void }> }[] = [
  { name: 'SQLite', start: async () => ({ env: {}, stop() {} }) },
  {
    name: 'PostgreSQL',
    async start() {
      const postgres = await startPostgres()
      return { env: { DATABASE_URL: postgres.url }, stop: () => postgres.stop() }
    },
  },
]

export function startApp(dir: string, env: NodeJS.ProcessEnv): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--conditions=development', '--import', 'tsx', 'public/index.ts'], {
    cwd: dir,
    env: cleanEnv({ ...env, PORT: '0', HOST: '127.0.0.1' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  return new Promise((resolve, reject) => {
    let output = ''
    const onData = (chunk: Buffer) => {
      output += chunk
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1]
      if (url) resolve({ url, child })
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.once('exit', (code) => reject(new Error(`The app exited with ${code}:\n${output}`)))
  })
}

export async function stopApp(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  await exited
}

/** An app made by fw make:auth, with the starters' tests support, tsconfig and vitest config. */
export async function generatedApp(): Promise<FwApp> {
  const app = createFwApp()
  for (const name of ['tsx', 'vitest']) symlinkSync(join(checkout, 'node_modules', name), join(app.dir, 'node_modules', name), 'dir')
  mkdirSync(join(app.dir, 'node_modules/@types'))
  symlinkSync(join(checkout, 'node_modules/@types/node'), join(app.dir, 'node_modules/@types/node'), 'dir')
  for (const path of ['tsconfig.json', 'vitest.config.ts', 'bootstrap/app.ts', 'tests/app.ts', 'tests/server.ts', 'tests/setup.ts', 'tests/database.ts']) {
    app.write(path, readFileSync(join(checkout, 'template/api', path), 'utf8'))
  }
  app.write('.env', `APP_KEY=${KEY}\nAPP_URL=${APP_URL}\n`)
  const made = await app.fw(['make:auth'])
  expect(made.stderr).toBe('')
  return app
}

