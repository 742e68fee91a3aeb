// fw-runtime/auth over real HTTP, on both servers, on SQLite and on PostgreSQL: the findings of the security
// review of make:auth that the runtime closes (issue 16), each as an attacker would try it.
import { mkdtempSync, rmSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Kysely } from 'kysely'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { Container } from '../../src/container/Container.js'
import { createDatabase } from '../../src/database/createDatabase.js'
import type { RunningServer } from '../../src/server/listen.js'
import { pruneAuthTables } from '../../src/auth/pruneAuthTables.js'
import { startPostgres, type TestPostgres } from '../support/postgres.js'
import { listenOn, servers } from '../support/servers.js'
import { authRouter, createAuthTables } from './authApp.js'

const KEY = 'base64:' + Buffer.alloc(32, 3).toString('base64')
const PASSWORD = 'correct horse battery staple'
const folder = mkdtempSync(join(tmpdir(), 'fw-auth-'))
let postgres: TestPostgres | undefined

const databases = [
  { name: 'SQLite', open: async () => createDatabase(`sqlite:${join(folder, `auth-${Date.now()}-${Math.random()}.sqlite`)}`) },
  {
    name: 'PostgreSQL',
    open: async () => {
      postgres ??= await startPostgres()
      return createDatabase(postgres.url)
    },
  },
]

afterAll(() => {
  postgres?.stop()
  rmSync(folder, { recursive: true, force: true })
})

interface Answer {
  status: number
  headers: Headers
  text: string
  json: any
}

/** A browser's cookie jar for one site, enough for these tests. */
class Browser {
  readonly cookies = new Map<string, string>()
  constructor(private readonly base: string) {}

  async send(method: string, path: string, init: { headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
    const response = await fetch(this.base + path, { method, headers: { ...(cookie ? { Cookie: cookie } : {}), ...init.headers }, body: init.body, redirect: 'manual' })
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';')
      const at = pair.indexOf('=')
      if (pair.slice(at + 1) === '' || /Max-Age=0/.test(line)) this.cookies.delete(pair.slice(0, at))
      else this.cookies.set(pair.slice(0, at), pair.slice(at + 1))
    }
    const text = await response.text()
    return { status: response.status, headers: response.headers, text, json: (response.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : undefined }
  }

  /** A form post as a page of this site sends it, with the CSRF token of GET /login. */
  async submit(path: string, fields: Record<string, string>, contentType = 'application/x-www-form-urlencoded'): Promise<Answer> {
    return this.send('POST', path, { headers: { 'Content-Type': contentType, Accept: 'text/html' }, body: new URLSearchParams(fields).toString() })
  }

  async csrfToken(): Promise<string> {
    return /name="_token" value="([^"]+)"/.exec((await this.send('GET', '/login', { headers: { Accept: 'text/html' } })).text)![1]!
  }
}

describe.each(databases)('fw-runtime/auth on $name', ({ open }) => {
  describe.each(servers)('over $name', ({ start }) => {
    let server: RunningServer
    let db: Kysely<any>

    beforeAll(async () => {
      process.env.APP_KEY = KEY
      db = await open()
      Container.setInstance(new Container().instance('db', db))
      server = await listenOn(start, authRouter())
    })
    afterAll(async () => {
      await server.close()
      Container.setInstance(undefined)
      await db.destroy()
    })
    beforeEach(async () => {
      delete process.env.AUTH_IP_ATTEMPTS
      await createAuthTables(db)
    })

    const api = async (method: string, path: string, body?: object, token?: string): Promise<Answer> =>
      new Browser(server.url).send(method, path, {
        headers: { ...(body ? { 'Content-Type': 'application/json' } : {}), ...(token ? { Authorization: `Bearer ${token}` } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      })
    const register = async (email: string, name = 'Ada'): Promise<string> => {
      const answer = await api('POST', '/register', { name, email, password: PASSWORD, password_confirmation: PASSWORD })
      expect(answer.status).toBe(201)
      return answer.json.token as string
    }

    it('registers and signs in an API client with a bearer token; /me answers JSON without an Accept header', async () => {
      const token = await register('ada@example.com')
      const me = await api('GET', '/me', undefined, token)
      expect([me.status, me.headers.get('content-type'), me.json.user]).toEqual([200, 'application/json', { id: 1, name: 'Ada', email: 'ada@example.com' }])
      expect((await api('POST', '/logout', undefined, token)).status).toBe(200)
      expect((await api('GET', '/me', undefined, token)).json).toEqual({ error: 'Unauthenticated' })
    })

    it('answers 401 JSON to every client but a browser asking for a page, which is sent to /login (issue 38)', async () => {
      const chrome = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8'
      const asked = async (accept: string | undefined) => {
        // node:http sends no Accept unless told: the client that sends none at all.
        const { statusCode, headers, body } = await new Promise<{ statusCode: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
          const url = new URL('/me?tab=1', server.url)
          request(url, { headers: accept === undefined ? {} : { Accept: accept } }, (response) => {
            let body = ''
            response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk))
            response.on('end', () => resolve({ statusCode: response.statusCode!, headers: response.headers, body }))
          }).on('error', reject).end()
        })
        return [accept ?? 'none', statusCode, headers['content-type'] ?? null, statusCode === 302 ? headers.location : JSON.parse(body)]
      }
      const unauthenticated = (accept: string) => [accept, 401, 'application/json', { error: 'Unauthenticated' }]
      // curl, fetch and generated clients: */* or no Accept at all; an API client that names JSON, first or alone.
      for (const accept of ['*/*', undefined, 'application/json', 'application/json, text/html', 'text/html;q=0.5, application/json', 'text/*, application/*']) {
        expect(await asked(accept)).toEqual(unauthenticated(accept ?? 'none'))
      }
      // Browsers: a navigation's Accept names text/html and prefers it to JSON, even with */* at the same quality.
      for (const accept of [chrome, 'text/html', 'text/html, */*', 'application/json;q=0.5, text/html']) {
        expect(await asked(accept)).toEqual([accept, 302, null, '/login?redirect=%2Fme%3Ftab%3D1'])
      }
      // The global fetch sends Accept: */*.
      const fetched = await fetch(`${server.url}/me`, { redirect: 'manual' })
      expect([fetched.status, await fetched.json()]).toEqual([401, { error: 'Unauthenticated' }])
    })

    it('sends a signed-in browser away from the guest pages, and lets a client that does not ask for a page through (issue 38)', async () => {
      await register('ada@example.com')
      const browser = new Browser(server.url)
      await browser.submit('/login', { _token: await browser.csrfToken(), email: 'ada@example.com', password: PASSWORD })
      const page = await browser.send('GET', '/login', { headers: { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } })
      expect([page.status, page.headers.get('location')]).toEqual([302, '/me'])
      const script = await browser.send('GET', '/login', { headers: { Accept: '*/*' } })
      expect([script.status, script.headers.get('location')]).toEqual([200, null])
      const missing = await browser.send('GET', '/nowhere', { headers: { Accept: '*/*' } })
      expect([missing.status, missing.json]).toEqual([404, { error: 'Not Found' }])
      const missingPage = await browser.send('GET', '/nowhere', { headers: { Accept: 'text/html' } })
      expect([missingPage.status, missingPage.headers.get('content-type')]).toEqual([404, 'text/html; charset=utf-8'])
    })

    it('asks for password_confirmation when the app says so, and registers an older app\'s form without it', async () => {
      const mismatch = await api('POST', '/register?confirmed', { name: 'Ada', email: 'ada@example.com', password: PASSWORD, password_confirmation: 'typo' })
      expect([mismatch.status, mismatch.json.errors]).toEqual([422, { password_confirmation: ['The password confirmation does not match.'] }])
      const missing = await api('POST', '/register?confirmed', { name: 'Ada', email: 'ada@example.com', password: PASSWORD })
      expect([missing.status, missing.json.errors]).toEqual([422, { password_confirmation: ['The password confirmation does not match.'] }])
      expect((await api('POST', '/register?confirmed', { name: 'Ada', email: 'ada@example.com', password: PASSWORD, password_confirmation: PASSWORD })).status).toBe(201)
      expect((await api('POST', '/register', { name: 'Grace', email: 'grace@example.com', password: PASSWORD })).status).toBe(201)
    })

    it('refuses a guest form post to /login and /register whose Content-Type ends in ;json (finding 1)', async () => {
      await register('ada@example.com')
      for (const contentType of ['application/x-www-form-urlencoded;json', 'text/plain;json', 'application/x-www-form-urlencoded']) {
        const browser = new Browser(server.url)
        const login = await browser.submit('/login', { email: 'ada@example.com', password: PASSWORD }, contentType)
        expect([contentType, login.status]).toEqual([contentType, 419])
        const registered = await browser.submit('/register', { name: 'Eve', email: `eve${contentType.length}@example.com`, password: PASSWORD, password_confirmation: PASSWORD }, contentType)
        expect([contentType, registered.status]).toEqual([contentType, 419])
        // The refused browser is signed in to nobody's account.
        expect((await browser.send('GET', '/me', { headers: { Accept: 'application/json' } })).status).toBe(401)
      }
      expect(await db.selectFrom('users').select('email').execute()).toEqual([{ email: 'ada@example.com' }])
    })

    it('signs a browser in with the session cookie and its CSRF token; a sibling origin is refused even with the token', async () => {
      await register('ada@example.com')
      const browser = new Browser(server.url)
      const token = await browser.csrfToken()
      const sibling = await browser.send('POST', '/login', {
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Sec-Fetch-Site': 'same-site', Accept: 'text/html' },
        body: new URLSearchParams({ _token: token, email: 'ada@example.com', password: PASSWORD }).toString(),
      })
      expect(sibling.status).toBe(419)
      const signedIn = await browser.submit('/login', { _token: token, email: 'ada@example.com', password: PASSWORD })
      expect([signedIn.status, signedIn.headers.get('location')]).toEqual([303, '/me'])
      expect(signedIn.headers.getSetCookie().find((line) => line.startsWith('fw_session='))).toMatch(/; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax$/)
      const me = await browser.send('GET', '/me', { headers: { Accept: 'application/json' } })
      expect(me.json.user.email).toBe('ada@example.com')
      expect(me.json.csrf).not.toBe(token)
      // The cookie set at sign-in already holds the new CSRF token: a client that keeps it sees one token.
      const atSignIn = signedIn.headers.getSetCookie().find((line) => line.startsWith('fw_session='))!.split(';')[0]!
      const again = await fetch(`${server.url}/me`, { headers: { Accept: 'application/json', Cookie: atSignIn } })
      expect(((await again.json()) as { csrf: string }).csrf).toBe(me.json.csrf)
      // A signed-in browser that opens the sign-in page goes home: the page redirectIfAuthenticated names.
      const atLogin = await browser.send('GET', '/login', { headers: { Accept: 'text/html' } })
      expect([atLogin.status, atLogin.headers.get('location')]).toEqual([302, '/me'])
    })

    it('signs in from a page sent with Referrer-Policy: no-referrer over plain http (Origin: null, no Sec-Fetch-Site) with the token, and only with it', async () => {
      await register('ada@example.com')
      const browser = new Browser(server.url)
      const token = await browser.csrfToken()
      const post = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
        browser.send('POST', '/login', {
          headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html', Origin: 'null', ...headers },
          body: new URLSearchParams({ email: 'ada@example.com', password: PASSWORD, ...fields }).toString(),
        })
      expect((await post({ _token: 'not-the-token' })).status).toBe(419)
      expect((await post({})).status).toBe(419)
      expect((await post({ _token: token }, { Origin: 'http://evil.example.test' })).status).toBe(419)
      expect((await post({ _token: token }, { 'Sec-Fetch-Site': 'cross-site' })).status).toBe(419)
      const signedIn = await post({ _token: token })
      expect([signedIn.status, signedIn.headers.get('location')]).toEqual([303, '/me'])
    })

    it('"remember me" gives a session of 30 days, cookie and token alike, revoked by signing out; without it, the session as before', async () => {
      await register('ada@example.com')
      const DAY = 86_400
      const signIn = async (fields: Record<string, string>) => {
        const browser = new Browser(server.url)
        const answer = await browser.submit('/login', { _token: await browser.csrfToken(), email: 'ada@example.com', password: PASSWORD, ...fields })
        expect(answer.status).toBe(303)
        const cookie = answer.headers.getSetCookie().find((line) => line.startsWith('fw_session='))!
        const row = await db.selectFrom('access_tokens').select('expires_at').where('kind', '=', 'session').orderBy('id', 'desc').executeTakeFirstOrThrow()
        const days = (new Date(row.expires_at).getTime() - Date.now()) / (DAY * 1000)
        return { browser, maxAge: Number(/Max-Age=(\d+)/.exec(cookie)![1]), days }
      }

      const remembered = await signIn({ remember: 'on' })
      expect(remembered.maxAge).toBe(30 * DAY)
      expect(remembered.days).toBeGreaterThan(29.9)
      // The cookie keeps its 30 days on every later answer, as the session slides.
      const me = await remembered.browser.send('GET', '/me', { headers: { Accept: 'text/html' } })
      expect(me.status).toBe(200)
      expect(me.headers.getSetCookie().find((line) => line.startsWith('fw_session='))).toContain(`Max-Age=${30 * DAY}`)

      const plain = await signIn({})
      expect(plain.maxAge).toBe(120 * 60)
      expect(plain.days).toBeGreaterThan(13.9)
      expect(plain.days).toBeLessThan(14.1)

      const csrf = /"csrf":"([^"]+)"/.exec(me.text)?.[1] ?? (await remembered.browser.send('GET', '/me', { headers: { Accept: 'application/json' } })).json.csrf
      await remembered.browser.submit('/logout', { _token: csrf })
      expect((await remembered.browser.send('GET', '/me', { headers: { Accept: 'application/json' } })).status).toBe(401)
      expect((await plain.browser.send('GET', '/me', { headers: { Accept: 'application/json' } })).status).toBe(200)
    })

    it('counts sign-in attempts in the database before hashing: of 25 parallel wrong passwords at most 5 are checked (finding 2)', async () => {
      await register('ada@example.com')
      const answers = await Promise.all(Array.from({ length: 25 }, () => api('POST', '/login', { email: 'ada@example.com', password: 'wrong password' })))
      const statuses = answers.map((answer) => answer.status)
      expect(statuses.filter((status) => status === 422)).toHaveLength(5)
      expect(statuses.filter((status) => status === 429)).toHaveLength(20)
      const locked = answers.find((answer) => answer.status === 429)!
      expect(Number(locked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
      expect(locked.json.error).toMatch(/^Too many login attempts\. Try again in \d+ seconds\.$/)
      expect((await api('POST', '/login', { email: 'ada@example.com', password: PASSWORD })).status).toBe(429)
    })

    it('refuses the commonest passwords and the account\'s own email or name (finding 5)', async () => {
      for (const password of ['password', '12345678', 'Password1', 'qwertyuiop', 'aaaaaaaaaa', 'ada.lovelace@example.com', 'ADA.Lovelace@example.com', 'ada.lovelace', 'Ada Lovelace']) {
        const answer = await api('POST', '/register', { name: 'Ada Lovelace', email: 'ada.lovelace@example.com', password, password_confirmation: password })
        expect([password, answer.status, Object.keys(answer.json.errors)]).toEqual([password, 422, ['password']])
      }
      expect((await api('POST', '/register', { name: 'Ada', email: 'ada@example.com', password: 'short', password_confirmation: 'short' })).json.errors.password).toEqual(['The password must be at least 8 characters.'])
      expect(await db.selectFrom('users').selectAll().execute()).toEqual([])
    })

    it('revokes every token and session of the user when the password changes (finding 6)', async () => {
      const first = await register('ada@example.com')
      const second = (await api('POST', '/login', { email: 'ada@example.com', password: PASSWORD })).json.token as string
      const browser = new Browser(server.url)
      await browser.submit('/login', { _token: await browser.csrfToken(), email: 'ada@example.com', password: PASSWORD })
      const oldCookie = browser.cookies.get('fw_session')!
      const other = await register('grace@example.com', 'Grace')

      const changed = await api('POST', '/password', { password: 'a new and better secret' }, first)
      expect(changed.status).toBe(200)

      for (const token of [first, second]) expect((await api('GET', '/me', undefined, token)).status).toBe(401)
      const replay = await fetch(`${server.url}/me`, { headers: { Accept: 'application/json', Cookie: `fw_session=${oldCookie}` } })
      expect(replay.status).toBe(401)
      expect((await api('GET', '/me', undefined, other)).status).toBe(200)
      expect((await api('POST', '/login', { email: 'ada@example.com', password: PASSWORD })).status).toBe(422)
      expect((await api('POST', '/login', { email: 'ada@example.com', password: 'a new and better secret' })).status).toBe(200)
      expect((await api('POST', '/password', { password: 'password1' }, other)).json.errors).toEqual({ password: ['This password is too common. Choose another one.'] })
    })

    it('takes credentials from the body only, never the query string (finding 9)', async () => {
      await register('ada@example.com')
      const query = `?email=ada%40example.com&password=${encodeURIComponent(PASSWORD)}&name=Eve`
      const login = await new Browser(server.url).send('POST', `/login${query}`, { headers: { 'Content-Type': 'application/json' }, body: '{}' })
      expect([login.status, Object.keys(login.json.errors).sort()]).toEqual([422, ['email', 'password']])
      const registered = await new Browser(server.url).send('POST', `/register${query.replace('ada%40', 'eve%40')}`, { headers: { 'Content-Type': 'application/json' }, body: '{}' })
      expect(registered.status).toBe(422)
    })

    it('sends no-store, nosniff and no-framing headers on auth answers, errors included (finding 10)', async () => {
      const token = await register('ada@example.com')
      const browser = new Browser(server.url)
      for (const answer of [await browser.send('GET', '/login', { headers: { Accept: 'text/html' } }), await api('GET', '/me', undefined, token), await api('GET', '/me'), await browser.submit('/login', {})]) {
        expect(answer.headers.get('cache-control')).toBe('no-store')
        expect(answer.headers.get('x-content-type-options')).toBe('nosniff')
        expect(answer.headers.get('x-frame-options')).toBe('DENY')
        expect(answer.headers.get('content-security-policy')).toBe("frame-ancestors 'none'")
      }
    })

    it('hashes the password of a taken email too, and one registration of an email wins a race (finding 11)', async () => {
      await register('ada@example.com')
      const answers = await Promise.all(
        ['ada@example.com', 'grace@example.com', 'grace@example.com'].map((email) => api('POST', '/register', { name: 'X', email, password: PASSWORD, password_confirmation: PASSWORD })),
      )
      expect(answers.map((answer) => answer.status).sort()).toEqual([201, 422, 422])
      expect(answers[0]!.json.errors).toEqual({ email: ['The email has already been taken.'] })
      expect(await db.selectFrom('users').select('email').orderBy('id').execute()).toEqual([{ email: 'ada@example.com' }, { email: 'grace@example.com' }])
    })

    it('pruneAuthTables() deletes the expired tokens and ended throttle windows of everyone, and nothing else', async () => {
      const token = await register('ada@example.com')
      const other = await register('grace@example.com')
      const past = new Date(Date.now() - 1000).toISOString()
      await db.updateTable('access_tokens').set({ expires_at: past }).where('user_id', '=', 2).execute()
      await db.insertInto('login_attempts').values([{ key: 'a'.repeat(64), attempts: 3, reset_at: Date.now() - 1 }, { key: 'b'.repeat(64), attempts: 1, reset_at: Date.now() + 60_000 }]).execute()
      expect(await pruneAuthTables()).toEqual({ tokens: 1, passwordResets: 0, loginAttempts: 1 })
      // The registrations' own counts are in their window still, as is b's.
      const keys = (await db.selectFrom('login_attempts').select('key').execute()).map((row) => row.key)
      expect(keys).toContain('b'.repeat(64))
      expect(keys).not.toContain('a'.repeat(64))
      expect((await api('GET', '/me', undefined, token)).status).toBe(200)
      expect((await api('GET', '/me', undefined, other)).status).toBe(401)
      expect(await pruneAuthTables()).toEqual({ tokens: 0, passwordResets: 0, loginAttempts: 0 })
    })

    it('limits attempts per address across emails, sign-ins and registrations together, and prunes old rows (finding 12)', async () => {
      process.env.AUTH_IP_ATTEMPTS = '6'
      await db.insertInto('login_attempts').values({ key: 'x'.repeat(64), attempts: 9, reset_at: Date.now() - 1000 }).execute()
      await register('ada@example.com')
      for (let attempt = 0; attempt < 4; attempt++) {
        expect((await api('POST', '/login', { email: `nobody${attempt}@example.com`, password: 'wrong password' })).status).toBe(422)
      }
      // A successful sign-in gives its attempt back: a real user is not counted against the limit.
      expect((await api('POST', '/login', { email: 'ada@example.com', password: PASSWORD })).status).toBe(200)
      expect((await api('POST', '/login', { email: 'nobody9@example.com', password: 'wrong password' })).status).toBe(422)
      const locked = await api('POST', '/register', { name: 'Eve', email: 'eve@example.com', password: PASSWORD, password_confirmation: PASSWORD })
      expect([locked.status, locked.json.error]).toEqual([429, expect.stringMatching(/^Too many login attempts/)])
      expect((await api('POST', '/login', { email: 'ada@example.com', password: PASSWORD })).status).toBe(429)
      const keys = (await db.selectFrom('login_attempts').select('key').execute()).map((row) => row.key)
      expect(keys).not.toContain('x'.repeat(64))
      expect(keys.every((key) => /^[0-9a-f]{64}$/.test(key))).toBe(true)
    })
  })
})
