// fw make:auth in an installed application: its own tests and type check, then the whole flow over
// HTTP on SQLite, and on PostgreSQL with two application processes sharing the database.
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startPostgres, type TestPostgres } from '../runtime/test/support/postgres.js'
import { installedApp, type InstalledApp } from './support/installedApp.js'
import type { RunningApp } from './support/process.js'

const PASSWORD = 'correct horse battery staple'

interface Answer {
  status: number
  headers: Headers
  text: string
  json: Record<string, any> | undefined
}

async function send(url: string, method: string, path: string, options: { body?: object; form?: Record<string, string>; headers?: Record<string, string> } = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers }
  let body: string | undefined
  if (options.body) {
    headers['Content-Type'] = 'application/json'
    body = JSON.stringify(options.body)
  } else if (options.form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded'
    body = new URLSearchParams(options.form).toString()
  }
  const response = await fetch(`${url}${path}`, { method, headers, body, redirect: 'manual' })
  const text = await response.text()
  const json = (response.headers.get('content-type') ?? '').includes('json') ? (JSON.parse(text) as Record<string, any>) : undefined
  return { status: response.status, headers: response.headers, text, json }
}

const asJson = (token?: string) => ({ Accept: 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) })

/** `name=value` of a Set-Cookie header in the answer. */
function cookieOf(answer: Answer, name: string): string | undefined {
  const header = answer.headers.getSetCookie().find((cookie) => cookie.startsWith(`${name}=`))
  return header?.split(';')[0]
}

function formToken(answer: Answer): string {
  const token = /name="_token" value="([^"]+)"/.exec(answer.text)?.[1]
  if (!token) throw new Error(`No _token in the page:\n${answer.text}`)
  return token
}

/**
 * Registers, signs in with a token and with the cookie (and its CSRF token), calls a protected route,
 * logs out both ways, checks the revoked token and cookie fail, and trips the throttle. Requests
 * alternate between `a` and `b`: two processes must accept each other's tokens and share the counts.
 */
async function authFlow(a: string, b: string, email: string): Promise<void> {
  // Registration and tokens.
  // With email verification, registration signs no one in and answers a new and a taken email alike (202).
  let r = await send(a, 'POST', '/register', { body: { name: 'Ada', email, password: PASSWORD, password_confirmation: PASSWORD }, headers: asJson() })
  expect([r.status, r.json]).toEqual([202, { message: expect.stringMatching(/^Check your email/) }])
  expect(r.text).not.toMatch(/password|scrypt/)
  const registered = r.json
  r = await send(b, 'POST', '/register', { body: { name: 'Ada', email, password: PASSWORD, password_confirmation: PASSWORD }, headers: asJson() })
  expect([r.status, r.json]).toEqual([202, registered])

  r = await send(b, 'POST', '/login', { body: { email, password: PASSWORD }, headers: asJson() })
  expect(r.status).toBe(200)
  const token = r.json!.token as string
  expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
  r = await send(a, 'GET', '/me', { headers: asJson(token) })
  expect([r.status, r.json]).toEqual([200, { user: { id: expect.any(Number), name: 'Ada', email }, email_verified_at: null }])
  // A bearer token gets JSON without asking for it.
  r = await send(b, 'GET', '/me', { headers: { Authorization: `Bearer ${token}` } })
  expect([r.status, r.json]).toEqual([200, { user: { id: expect.any(Number), name: 'Ada', email }, email_verified_at: null }])
  r = await send(a, 'GET', '/me', { headers: asJson() })
  expect([r.status, r.json]).toEqual([401, { error: 'Unauthenticated' }])

  r = await send(a, 'POST', '/logout', { headers: asJson(token) })
  expect(r.status).toBe(200)
  r = await send(b, 'GET', '/me', { headers: asJson(token) })
  expect([r.status, r.json]).toEqual([401, { error: 'Unauthenticated' }])

  // A browser: the sign-in page, the cookie and the CSRF token.
  r = await send(b, 'GET', '/me', { headers: { Accept: 'text/html' } })
  expect([r.status, r.headers.get('location')]).toEqual([302, '/login?redirect=%2Fme'])
  r = await send(a, 'GET', '/login?redirect=/me', { headers: { Accept: 'text/html' } })
  expect(r.status).toBe(200)
  // Finding 10: the sign-in page stays out of caches and frames.
  expect([r.headers.get('cache-control'), r.headers.get('x-frame-options'), r.headers.get('content-security-policy')]).toEqual(['no-store', 'DENY', "frame-ancestors 'none'"])
  // The guest's CSRF token lives in its encrypted session cookie (fw-runtime's session middleware).
  const guestCookie = cookieOf(r, 'fw_session')!
  const guestToken = formToken(r)
  const fields = { email, password: PASSWORD, redirect: '/me' }
  r = await send(b, 'POST', '/login', { form: fields, headers: { Accept: 'text/html', Cookie: guestCookie } })
  expect(r.status).toBe(419)
  // Finding 1: a form of another site that says `;json` is a browser's post all the same.
  for (const contentType of ['application/x-www-form-urlencoded;json', 'text/plain;json']) {
    const forged = await fetch(`${b}/login`, { method: 'POST', headers: { 'Content-Type': contentType, Accept: 'text/html' }, body: new URLSearchParams(fields).toString(), redirect: 'manual' })
    expect([contentType, forged.status]).toEqual([contentType, 419])
    const cookie = forged.headers.getSetCookie().find((line) => line.startsWith('fw_session='))?.split(';')[0]
    const after = await send(a, 'GET', '/me', { headers: { Accept: 'application/json', ...(cookie ? { Cookie: cookie } : {}) } })
    expect(after.status).toBe(401)
  }
  r = await send(b, 'POST', '/login', { form: { ...fields, _token: guestToken }, headers: { Accept: 'text/html', Cookie: guestCookie } })
  expect([r.status, r.headers.get('location')]).toEqual([303, '/me'])
  const setCookie = r.headers.getSetCookie().find((cookie) => cookie.startsWith('fw_session='))!
  expect(setCookie).toMatch(/; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax$/)
  const session = cookieOf(r, 'fw_session')!

  r = await send(a, 'GET', '/me', { headers: { Accept: 'application/json', Cookie: session } })
  expect([r.status, r.json?.user?.email]).toEqual([200, email])
  r = await send(a, 'GET', '/me', { headers: { Accept: 'text/html', Cookie: session } })
  const sessionToken = formToken(r)
  r = await send(b, 'POST', '/logout', { form: {}, headers: { Accept: 'text/html', Cookie: session } })
  expect(r.status).toBe(419)
  r = await send(b, 'POST', '/logout', { form: { _token: sessionToken }, headers: { Accept: 'text/html', Cookie: session } })
  expect([r.status, r.headers.get('location')]).toEqual([303, '/login'])
  r = await send(a, 'GET', '/me', { headers: { Accept: 'application/json', Cookie: session } })
  expect(r.status).toBe(401)

  // The throttle: five failures for this email and address, counted by both processes together.
  for (const url of [a, b, a, b, a]) {
    r = await send(url, 'POST', '/login', { body: { email, password: 'wrong password' }, headers: asJson() })
    expect(r.status).toBe(422)
  }
  for (const url of [b, a]) {
    r = await send(url, 'POST', '/login', { body: { email, password: PASSWORD }, headers: asJson() })
    expect(r.status).toBe(429)
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    expect(Number(r.headers.get('retry-after'))).toBeLessThanOrEqual(60)
    expect(r.json!.error).toMatch(/^Too many login attempts/)
  }

  // Finding 2: 25 guesses sent at once, split over both processes, are counted before any is checked.
  const raced = await Promise.all(
    Array.from({ length: 25 }, (_, i) => send(i % 2 === 0 ? a : b, 'POST', '/login', { body: { email: `race-${email}`, password: 'wrong password' }, headers: asJson() })),
  )
  expect(raced.filter((answer) => answer.status === 422)).toHaveLength(5)
  expect(raced.filter((answer) => answer.status === 429)).toHaveLength(20)
}

describe('fw make:auth in an installed app', () => {
  let app: InstalledApp
  /** The migrations make:auth wrote: a fresh database runs each once. */
  /** The app's migrations: the starter's tasks table (which create-fw-app migrated on SQLite) and make:auth's. */
  const migrations = () => readdirSync(join(app.dir, 'database/migrations')).filter((file) => file.endsWith('.ts')).length
  const authMigrations = () => migrations() - 1
  const servers: RunningApp[] = []
  let postgres: TestPostgres | undefined

  beforeAll(async () => {
    app = await installedApp({ template: 'api' })
  })
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()))
    postgres?.stop()
  })

  it('generates auth; fw migrate, the app\'s npm test and tsc --noEmit pass', async () => {
    const made = await app.runOk('npx', ['fw', 'make:auth'])
    expect(made.stdout).toContain('Created tests/auth.test.ts')
    const again = await app.run('npx', ['fw', 'make:auth'])
    // The last line: npm may print its own warnings first.
    expect([again.code, again.stderr.trim().split('\n').at(-1)]).toEqual([1, 'Auth is already installed (routes/auth.ts exists); use --force to write its files again'])

    expect((await app.runOk('npx', ['fw', 'migrate'])).stdout.match(/^Migrated {2}/gm)).toHaveLength(authMigrations())
    const tests = await app.run('npm', ['test'])
    expect(tests.code, `${tests.stdout}\n${tests.stderr}`).toBe(0)
    expect(stripVTControlCharacters(tests.stdout)).toMatch(/tests\/auth\.test\.ts \(11 tests\)/)
    expect(stripVTControlCharacters(tests.stdout)).toMatch(/tests\/auth-security\.test\.ts \(9 tests\)/)
    await app.runOk('npx', ['tsc', '--noEmit'])
  })

  it('runs the flow on SQLite, compiled as npm start runs it', async () => {
    await app.runOk('npm', ['run', 'build'])
    const server = await app.start(['node', 'dist/public/index.js'])
    servers.push(server)

    await authFlow(server.url, server.url, 'sqlite@example.com')

    // Over https (here, as a proxy reports it) the session cookie is Secure.
    const page = await send(server.url, 'GET', '/register', { headers: { Accept: 'text/html' } })
    const form = { _token: formToken(page), name: 'Tim', email: 'https@example.com', password: PASSWORD, password_confirmation: PASSWORD }
    const headers = { Accept: 'text/html', Cookie: cookieOf(page, 'fw_session')!, 'X-Forwarded-Proto': 'https' }
    const registered = await send(server.url, 'POST', '/register', { form, headers })
    expect([registered.status, registered.headers.get('location')]).toEqual([303, '/login'])
    // Registration signs no one in (the link in the mail verifies the email): the new user signs in.
    const login = await send(server.url, 'GET', '/login', { headers: { ...headers, Cookie: cookieOf(registered, 'fw_session') ?? headers.Cookie } })
    expect(login.text).toContain('<p class="notice" role="status">Check your email')
    const signIn = { _token: formToken(login), email: form.email, password: PASSWORD }
    const signedIn = await send(server.url, 'POST', '/login', { form: signIn, headers: { ...headers, Cookie: cookieOf(login, 'fw_session') ?? cookieOf(registered, 'fw_session') ?? headers.Cookie } })
    expect([signedIn.status, signedIn.headers.get('location')]).toEqual([303, '/me'])
    expect(signedIn.headers.getSetCookie().find((cookie) => cookie.startsWith('fw_session='))).toMatch(/; HttpOnly; Secure; SameSite=Lax$/)

    const css = await send(server.url, 'GET', '/css/app.css')
    expect([css.status, css.headers.get('content-type')]).toEqual([200, 'text/css; charset=utf-8'])
    expect(css.text).toMatch(/\n\.notice \{\n {2}color: var\(--success\);/)
    // Every page's browser asks for /favicon.ico: the starter's, from public/.
    const icon = await send(server.url, 'GET', '/favicon.ico')
    expect([icon.status, icon.headers.get('content-type')]).toEqual([200, 'image/x-icon'])
  })

  it('runs the flow on PostgreSQL, across two processes that share it', async () => {
    postgres = await startPostgres()
    const env = { DATABASE_URL: postgres.url }
    // A new database: the starter's migration too.
    expect((await app.runOk('npx', ['fw', 'migrate'], { env })).stdout.match(/^Migrated {2}/gm)).toHaveLength(migrations())
    const [one, two] = await Promise.all([app.start(undefined, env), app.start(undefined, env)])
    servers.push(one!, two!)
    expect(one!.url).not.toBe(two!.url)

    await authFlow(one!.url, two!.url, 'postgres@example.com')
  })
})
