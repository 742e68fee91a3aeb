// make:auth's email verification in a generated app, over real HTTP, on SQLite and PostgreSQL, its mail sent through a
// real SMTP server in this process (QUEUE_DRIVER=sync: the mail leaves at dispatch). And the generated app's own tests
// of it, with mail.fake(), run by vitest in the app.
import type { ChildProcess } from 'node:child_process'
import type { Kysely } from 'kysely'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createDatabase } from '../../src/database/createDatabase.js'
import { UrlSigner } from '../../src/routing/UrlSigner.js'
import type { FwApp } from '../support/fwApp.js'
import { APP_URL, BACKENDS, Browser, decoded, generatedApp, runOwnTests, KEY, PASSWORD, startApp, stopApp, typeCheck } from '../support/generatedAuthApp.js'
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from '../support/smtpServer.js'

const CHECK_EMAIL = 'Check your email: we sent a link to finish signing up. It works for 60 minutes.'
const NOT_VERIFIED = 'Your email address is not verified.'
/** A route of the app's own behind `verified`, as the comment in routes/auth.ts shows. */
const VERIFIED_ROUTE = [
  "import { Route } from 'fw-runtime'",
  "import { auth, authHeaders, currentUser } from 'fw-runtime/auth'",
  '',
  "Route.get('/dashboard', (request) => ({ hello: currentUser(request).name })).middleware(authHeaders, 'session', auth, 'verified')",
  '',
].join('\n')

/** The path of the verification link in a mail (built on APP_URL, never on the Host the request came with). */
function verificationLink(mail: ReceivedMail): string {
  const link = new RegExp(`${APP_URL}(/email/verify/\\d+/[0-9a-f]{64}\\?expires=\\d+&signature=[^\\s"<>]+)`).exec(decoded(mail))?.[1]
  if (!link) throw new Error(`No verification link in the mail:\n${mail.raw}`)
  return link.replace(/&amp;/g, '&')
}

describe('the generated email verification code', () => {
  let app: FwApp
  beforeAll(async () => {
    app = await generatedApp()
  })
  afterAll(() => app?.remove())

  it('type-checks as the starters check it', () => {
    expect(typeCheck(app)).toEqual({ output: '', status: 0 })
  })

  it("passes the app's own tests of it (tests/email-verification.test.ts with mail.fake(), and tests/auth-security.test.ts)", () => {
    const run = runOwnTests(app, ['tests/email-verification.test.ts', 'tests/auth-security.test.ts'])
    expect(run.output).toMatch(/Tests {2}13 passed \(13\)/)
    expect(run.status).toBe(0)
  }, 180_000)
})

describe.each(BACKENDS)('email verification over HTTP with a real SMTP server, on $name', (backend) => {
  let app: FwApp
  let smtp: TestSmtpServer
  let server: { url: string; child: ChildProcess }
  let stopDatabase: () => void
  let db: Kysely<any>
  let registered = 0

  beforeAll(async () => {
    const database = await backend.start()
    stopDatabase = database.stop
    smtp = await startSmtpServer()
    app = await generatedApp()
    app.write('routes/web.ts', `${VERIFIED_ROUTE}import './auth.js'\n`)
    const env = { ...database.env, MAIL_MAILER: 'smtp', MAIL_URL: smtp.url, MAIL_FROM: 'Fw <hello@example.test>', QUEUE_DRIVER: 'sync' }
    const migrated = await app.fw(['migrate'], env)
    expect(migrated.stderr).toBe('')
    db = createDatabase(database.env.DATABASE_URL, app.dir)
    server = await startApp(app.dir, env)
  }, 60_000)

  // Every request comes from 127.0.0.1: each test starts with the throttles' counts empty.
  beforeEach(async () => {
    await db.deleteFrom('login_attempts').execute()
  })

  afterAll(async () => {
    await stopApp(server?.child)
    await db?.destroy()
    await smtp?.close()
    app?.remove()
    stopDatabase?.()
  })

  const registration = (email: string, password = PASSWORD) =>
    fetch(`${server.url}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', host: 'evil.example.net' },
      body: JSON.stringify({ name: 'Ada', email, password, password_confirmation: password }),
    })

  /** A new user, registered and signed in (not verified): email, API token, and the mail with the verification link. */
  async function register(): Promise<{ email: string; token: string; mail: ReceivedMail }> {
    const email = `user${++registered}@example.com`
    const before = smtp.received.length
    const response = await registration(email)
    expect([response.status, await response.json()]).toEqual([202, { message: CHECK_EMAIL }])
    expect(smtp.received.length).toBe(before + 1)
    const login = await new Browser(server.url).json('POST', '/login', { email, password: PASSWORD })
    expect(login.status).toBe(200)
    return { email, token: ((await login.json()) as { token: string }).token, mail: smtp.received.at(-1)! }
  }

  const me = async (token: string) => (await (await new Browser(server.url).json('GET', '/me', undefined, token)).json()) as { email_verified_at: string | null }

  it('mails the link on registration; it verifies the email, and `verified` lets the user through from then on', async () => {
    const { email, token, mail } = await register()
    expect(mail.to).toEqual([email])
    expect(mail.raw).toMatch(/^Subject: Verify your email address\r?$/m)
    const link = verificationLink(mail)
    expect((await me(token)).email_verified_at).toBeNull()

    const api = new Browser(server.url)
    const refused = await api.json('GET', '/dashboard', undefined, token)
    expect([refused.status, await refused.json()]).toEqual([403, { error: NOT_VERIFIED }])
    const browser = new Browser(server.url)
    expect((await browser.submit('/login', '/login', { email, password: PASSWORD })).status).toBe(303)
    const sent = await browser.get('/dashboard')
    expect([sent.status, sent.headers.get('location')]).toEqual([302, '/email/verify'])
    // The same session from a script (fetch, curl: Accept */*) is not sent to a page: it gets the 403 JSON (issue 38).
    const script = await browser.get('/dashboard', '*/*')
    expect([script.status, await script.json()]).toEqual([403, { error: NOT_VERIFIED }])
    const notice = await browser.get('/email/verify')
    expect(notice.status).toBe(200)
    expect(await notice.text()).toContain(`Follow the link we mailed to ${email}`)

    const verified = await new Browser(server.url).get(link, 'application/json')
    expect([verified.status, await verified.json()]).toEqual([200, { message: 'Your email is verified.' }])
    const at = (await me(token)).email_verified_at
    expect(new Date(at!).getTime()).toBeGreaterThan(Date.now() - 60_000)
    expect(await (await api.json('GET', '/dashboard', undefined, token)).json()).toEqual({ hello: 'Ada' })
    expect((await browser.get('/dashboard')).status).toBe(200)
    expect([(await browser.get('/email/verify')).status, (await browser.get('/email/verify')).headers.get('location')]).toEqual([303, '/me'])

    // A second use changes nothing; a browser that follows it is sent to sign in, or HOME when signed in.
    const again = await new Browser(server.url).get(link)
    expect([again.status, again.headers.get('location')]).toEqual([303, '/login'])
    expect((await browser.get(link)).headers.get('location')).toBe('/me')
    expect((await me(token)).email_verified_at).toBe(at)

    // There, the news once, styled as good news (the danger colour is for what went wrong).
    const home = await (await browser.get('/me')).text()
    expect(home.match(/Your email is verified\./g)).toHaveLength(1)
    expect(home).toContain('<p class="notice" role="status">Your email is verified.</p>')
    expect(home).toContain(`<p>You are signed in as ${email}, a verified address.</p>`)
    const css = await (await browser.get('/css/app.css', 'text/css')).text()
    expect(css).toMatch(/\n\.notice \{\n {2}color: var\(--success\);\n\}/)
    expect(css).toMatch(/\n\.alert \{\n {2}color: var\(--danger\);\n\}/)
  })

  it('refuses a changed link (id, hash, expires or signature) and a link after 60 minutes, with 403', async () => {
    const first = await register()
    const second = await register()
    const link = verificationLink(first.mail)
    const url = new URL(link, APP_URL)
    const [, , , id, hash] = url.pathname.split('/') as [string, string, string, string, string]
    const secondId = new URL(verificationLink(second.mail), APP_URL).pathname.split('/')[3]!
    const flip = (text: string) => (text[0] === '0' ? '1' : '0') + text.slice(1)
    const changed = [
      link.replace(`/${id}/`, `/${secondId}/`),
      link.replace(hash, flip(hash)),
      link.replace(/expires=(\d+)/, (_, expires: string) => `expires=${Number(expires) + 3600}`),
      link.replace(/signature=([^&]+)/, (_, signature: string) => `signature=${flip(signature)}`),
      url.pathname,
    ]
    for (const path of changed) {
      const answer = await new Browser(server.url).get(path, 'application/json')
      expect([path, answer.status, await answer.json()]).toEqual([path, 403, { error: 'Invalid signature.' }])
    }

    // Signed with the app's key 61 minutes ago, for 60 minutes: expired, as the mailed link will be.
    const signer = new UrlSigner([KEY])
    const expired = signer.sign(url.pathname, Math.floor(Date.now() / 1000) - 60)
    const late = await new Browser(server.url).get(expired, 'application/json')
    expect([late.status, await late.json()]).toEqual([403, { error: 'This link has expired.' }])
    // A good signature on a hash that is not the email's (the address changed since): refused by verifyEmail.
    const stale = signer.sign(url.pathname.replace(hash, flip(hash)), Math.floor(Date.now() / 1000) + 3600)
    const wrong = await new Browser(server.url).get(stale, 'application/json')
    expect([wrong.status, await wrong.json()]).toEqual([403, { error: 'This verification link is invalid.' }])
    expect((await me(first.token)).email_verified_at).toBeNull()
    expect((await new Browser(server.url).get(signer.sign(url.pathname, Math.floor(Date.now() / 1000) + 60), 'application/json')).status).toBe(200)
  })

  it('mails a new link on asking, 6 times a minute, then answers 429 with Retry-After', async () => {
    const { email, token } = await register()
    const before = smtp.received.length
    for (let attempt = 0; attempt < 6; attempt++) {
      const sent = await new Browser(server.url).json('POST', '/email/verification-notification', undefined, token)
      expect(sent.status).toBe(202)
    }
    const refused = await new Browser(server.url).json('POST', '/email/verification-notification', undefined, token)

    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(50)
    expect(((await refused.json()) as { error: string }).error).toMatch(/^Too many verification emails\. Try again in \d+ seconds\.$/)
    expect(smtp.received.length).toBe(before + 6)
    expect(smtp.received.slice(before).every((mail) => mail.to[0] === email)).toBe(true)
    // A browser of the same user sees the wait as a problem, on the page.
    const browser = new Browser(server.url)
    expect((await browser.submit('/login', '/login', { email, password: PASSWORD })).status).toBe(303)
    const page = await browser.submit('/email/verify', '/email/verification-notification', {})
    expect(page.status).toBe(429)
    expect(await page.text()).toMatch(/<p class="alert" role="alert">Too many verification emails\. Try again in \d+ seconds\.<\/p>/)
    expect(smtp.received.length).toBe(before + 6)
    // The newest link works.
    expect((await new Browser(server.url).get(verificationLink(smtp.received.at(-1)!), 'application/json')).status).toBe(200)
  })

  it('answers a taken email byte for byte as a new one, creates nothing, and mails the owner instead', async () => {
    const { email } = await register()
    const users = async () => Number((await db.selectFrom('users').select((eb) => eb.fn.countAll().as('count')).executeTakeFirstOrThrow()).count)
    const count = await users()
    const before = smtp.received.length

    const fresh = await registration(`fresh${registered}@example.com`)
    const taken = await registration(email.toUpperCase(), 'another good passphrase')

    expect(taken.status).toBe(fresh.status)
    expect(await taken.text()).toBe(await fresh.text())
    // Date and X-Request-Id differ from one answer to the next; a cookie's value differs, its name does not.
    const headers = (response: Response) =>
      [...response.headers].filter(([name]) => name !== 'date' && name !== 'x-request-id').map(([name, value]) => (name === 'set-cookie' ? [name, value.split('=')[0]] : [name, value]))
    expect(headers(taken)).toEqual(headers(fresh))
    expect(await users()).toBe(count + 1)
    expect(smtp.received.length).toBe(before + 2)
    const owner = smtp.received.at(-1)!
    expect(owner.to).toEqual([email])
    expect(owner.raw).toMatch(/^Subject: You already have an account\r?$/m)
    expect(decoded(owner)).toContain(`${APP_URL}/forgot-password`)
    expect((await new Browser(server.url).json('POST', '/login', { email, password: 'another good passphrase' })).status).toBe(422)

    // A browser's form: the same redirect and notice for both.
    const browser = new Browser(server.url)
    const form = (address: string) => browser.submit('/register', '/register', { name: 'Ada', email: address, password: PASSWORD, password_confirmation: PASSWORD })
    const freshForm = await form(`form${registered}@example.com`)
    const takenForm = await form(email)
    expect([takenForm.status, takenForm.headers.get('location')]).toEqual([303, '/login'])
    expect([freshForm.status, freshForm.headers.get('location')]).toEqual([303, '/login'])
    expect(await (await browser.get('/login')).text()).toContain(CHECK_EMAIL)
  })
})
