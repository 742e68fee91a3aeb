// make:auth's password reset in a generated app, over real HTTP, on SQLite and PostgreSQL, its mail sent through a real
// SMTP server in this process (QUEUE_DRIVER=sync: the mail leaves at dispatch); then in headless Chromium. And the
// generated app's own tests of it, with mail.fake(), run by vitest in the app.
import type { ChildProcess } from 'node:child_process'
import type { Kysely } from 'kysely'
import { chromium, type Browser as ChromiumBrowser } from 'playwright-core'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createDatabase } from '../../src/database/createDatabase.js'
import type { FwApp } from '../support/fwApp.js'
import { APP_URL, BACKENDS, Browser, CHROMIUM_ARGS, decoded, generatedApp, runOwnTests, PASSWORD, startApp, stopApp, typeCheck } from '../support/generatedAuthApp.js'
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from '../support/smtpServer.js'

const NEW_PASSWORD = 'a brand new passphrase'
const SENT = 'If an account has this email, a link to reset its password is on its way. It works for 60 minutes.'
const INVALID = 'This password reset link is invalid or has expired.'

/** The path of the reset link in a mail (built on APP_URL, never on the Host the request came with). */
function resetLink(mail: ReceivedMail): string {
  const link = new RegExp(`${APP_URL}(/reset-password/[A-Za-z0-9_-]{43}\\?email=[^\\s"<>]+)`).exec(decoded(mail))?.[1]
  if (!link) throw new Error(`No reset link in the mail:\n${mail.raw}`)
  return link
}

function fields(link: string): { token: string; email: string } {
  const url = new URL(link, APP_URL)
  return { token: url.pathname.split('/').pop()!, email: url.searchParams.get('email')! }
}

describe('the generated password reset code', () => {
  let app: FwApp
  beforeAll(async () => {
    app = await generatedApp()
  })
  afterAll(() => app?.remove())

  it('type-checks as the starters check it', () => {
    expect(typeCheck(app)).toEqual({ output: '', status: 0 })
  })

  it("passes the app's own tests of it (tests/password-reset.test.ts with mail.fake(), remember me in tests/auth.test.ts)", () => {
    const run = runOwnTests(app, ['tests/password-reset.test.ts', 'tests/auth.test.ts'])
    expect(run.output).toMatch(/Tests {2}13 passed \(13\)/)
    expect(run.status).toBe(0)
  }, 120_000)
})

describe.each(BACKENDS)('password reset over HTTP with a real SMTP server, on $name', (backend) => {
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
    const env = { ...database.env, MAIL_MAILER: 'smtp', MAIL_URL: smtp.url, MAIL_FROM: 'Fw <hello@example.test>', QUEUE_DRIVER: 'sync' }
    const migrated = await app.fw(['migrate'], env)
    expect(migrated.stderr).toBe('')
    db = createDatabase(database.env.DATABASE_URL, app.dir)
    server = await startApp(app.dir, env)
  }, 60_000)

  // Every request comes from 127.0.0.1: each test starts with the throttle's counts empty (its per-address limit is
  // tested in runtime/test/auth/passwordReset.test.ts).
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

  /**
   * A new user (a new address each time, so that the throttle's per-email count starts afresh), signed in: email and API
   * token. Registration answers 202 and signs no one in (email verification, make-auth-verify.test.ts).
   */
  async function register(): Promise<{ email: string; token: string }> {
    const email = `user${++registered}@example.com`
    const response = await new Browser(server.url).json('POST', '/register', { name: 'Ada', email, password: PASSWORD, password_confirmation: PASSWORD })
    expect(response.status).toBe(202)
    const login = await new Browser(server.url).json('POST', '/login', { email, password: PASSWORD })
    expect(login.status).toBe(200)
    return { email, token: ((await login.json()) as { token: string }).token }
  }

  /** Asks for a link for the email (over JSON, with a Host of an attacker's choosing) and returns the mail it sent. */
  async function askForLink(email: string): Promise<ReceivedMail> {
    const before = smtp.received.length
    const response = await fetch(`${server.url}/forgot-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', host: 'evil.example.net' },
      body: JSON.stringify({ email }),
    })
    expect([response.status, await response.json()]).toEqual([200, { message: SENT }])
    expect(smtp.received.length).toBe(before + 1)
    return smtp.received.at(-1)!
  }

  const reset = (link: string, password = NEW_PASSWORD, confirmation = password) =>
    new Browser(server.url).json('POST', '/reset-password', { ...fields(link), password, password_confirmation: confirmation })

  it('answers a known and an unknown email alike (status, body, headers), and mails the known one only', async () => {
    const { email } = await register()
    const before = smtp.received.length
    const ask = (address: string) =>
      fetch(`${server.url}/forgot-password`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: address }) })

    const known = await ask(email)
    const unknown = await ask('nobody@example.com')

    expect(known.status).toBe(200)
    expect(unknown.status).toBe(known.status)
    expect(await unknown.text()).toBe(await known.text())
    // Date and X-Request-Id differ from one answer to the next, whatever they answer.
    const headers = (response: Response) => [...response.headers].filter(([name]) => name !== 'date' && name !== 'x-request-id')
    expect(headers(unknown)).toEqual(headers(known))
    expect(smtp.received.length).toBe(before + 1)
    const mail = smtp.received.at(-1)!
    expect(mail.to).toEqual([email])
    expect(mail.raw).toMatch(/^Subject: Reset your password\r?$/m)
  })

  it('resets the password with the mailed link; the old password, tokens and sessions stop working; the owner is told', async () => {
    const { email, token } = await register()
    const browser = new Browser(server.url)
    expect((await browser.submit('/login', '/login', { email, password: PASSWORD })).status).toBe(303)
    expect((await browser.get('/me')).status).toBe(200)
    const link = resetLink(await askForLink(email))

    const page = await new Browser(server.url).get(link)
    expect(page.status).toBe(200)
    expect(page.headers.get('referrer-policy')).toBe('no-referrer')
    expect(await page.text()).toContain(`value="${email}"`)

    const mismatch = await reset(link, NEW_PASSWORD, 'something else')
    expect([mismatch.status, await mismatch.json()]).toEqual([422, { error: 'The given data was invalid.', errors: { password_confirmation: ['The password confirmation does not match.'] } }])
    const weak = await reset(link, 'password')
    expect([weak.status, ((await weak.json()) as { errors: unknown }).errors]).toEqual([422, { password: ['This password is too common. Choose another one.'] }])

    const before = smtp.received.length
    const done = await reset(link)
    expect(done.status).toBe(200)
    expect(((await done.json()) as Record<string, unknown>).token).toBeUndefined()
    expect(smtp.received.length).toBe(before + 1)
    expect(smtp.received.at(-1)!.to).toEqual([email])
    expect(smtp.received.at(-1)!.raw).toMatch(/^Subject: Your password was changed\r?$/m)

    const api = new Browser(server.url)
    expect((await api.json('GET', '/me', undefined, token)).status).toBe(401)
    expect((await browser.get('/me')).status).toBe(302)
    expect((await api.json('POST', '/login', { email, password: PASSWORD })).status).toBe(422)
    expect((await api.json('POST', '/login', { email, password: NEW_PASSWORD })).status).toBe(200)

    // Used once: a second use opens nothing and changes nothing.
    expect((await new Browser(server.url).get(link)).status).toBe(404)
    const again = await reset(link, 'yet another passphrase')
    expect([again.status, await again.json()]).toEqual([422, { error: 'The given data was invalid.', errors: { token: [INVALID] } }])
    expect((await api.json('POST', '/login', { email, password: NEW_PASSWORD })).status).toBe(200)
  })

  it('refuses a link after 60 minutes, an older link once a newer one is mailed, and a pending link after a password change', async () => {
    const { email, token } = await register()
    const expired = resetLink(await askForLink(email))
    await db.updateTable('password_reset_tokens').set({ created_at: new Date(Date.now() - 61 * 60_000).toISOString() }).execute()
    expect((await new Browser(server.url).get(expired)).status).toBe(404)
    expect((await new Browser(server.url).get(expired, 'application/json')).status).toBe(404)
    expect((await reset(expired)).status).toBe(422)

    const older = resetLink(await askForLink(email))
    const newer = resetLink(await askForLink(email))
    expect((await reset(older)).status).toBe(422)
    expect((await new Browser(server.url).get(newer)).status).toBe(200)

    const changed = await new Browser(server.url).json('POST', '/password', { current_password: PASSWORD, password: NEW_PASSWORD }, token)
    expect(changed.status).toBe(200)
    expect((await new Browser(server.url).get(newer)).status).toBe(404)
    expect((await reset(newer, 'yet another passphrase')).status).toBe(422)
  })

  it('throttles forgot-password per email: the 4th request in 15 minutes is 429 with Retry-After, known email or not', async () => {
    for (const email of [(await register()).email, 'stranger@example.com']) {
      for (let attempt = 0; attempt < 3; attempt++) {
        const response = await new Browser(server.url).json('POST', '/forgot-password', { email })
        expect(response.status).toBe(200)
      }
      const refused = await new Browser(server.url).json('POST', '/forgot-password', { email })
      expect(refused.status).toBe(429)
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(14 * 60)
      expect(((await refused.json()) as { error: string }).error).toMatch(/^Too many password reset requests\. Try again in \d+ seconds\.$/)
    }
  })

  it('walks a browser through the forms: forgot password, the link, a new password, then sign in', async () => {
    const { email } = await register()
    const browser = new Browser(server.url)
    const login = await (await browser.get('/login')).text()
    expect(login).toContain('<a href="/forgot-password">Forgot your password?</a>')

    const before = smtp.received.length
    const asked = await browser.submit('/forgot-password', '/forgot-password', { email })
    expect([asked.status, asked.headers.get('location')]).toEqual([303, '/forgot-password'])
    expect(await (await browser.get('/forgot-password')).text()).toContain(SENT)
    expect(smtp.received.length).toBe(before + 1)
    const link = resetLink(smtp.received.at(-1)!)

    const mismatch = await browser.submit(link, '/reset-password', { ...fields(link), password: NEW_PASSWORD, password_confirmation: 'typo' })
    expect(mismatch.status).toBe(422)
    expect(mismatch.headers.get('referrer-policy')).toBe('no-referrer')
    expect(await mismatch.text()).toContain('The password confirmation does not match.')
    const done = await browser.submit(link, '/reset-password', { ...fields(link), password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD })
    expect([done.status, done.headers.get('location')]).toEqual([303, '/login'])
    expect(await (await browser.get('/login')).text()).toContain('Your password has been reset')

    const signedIn = await browser.submit('/login', '/login', { email, password: NEW_PASSWORD })
    expect([signedIn.status, signedIn.headers.get('location')]).toEqual([303, '/me'])
    expect((await browser.get('/me')).status).toBe(200)
    expect((await browser.get(link)).status).toBe(302)
  })
})

describe('password reset in production without mail settings (MAIL_MAILER unset)', () => {
  let app: FwApp
  let server: { url: string; child: ChildProcess }

  beforeAll(async () => {
    app = await generatedApp()
    expect((await app.fw(['migrate'])).stderr).toBe('')
    server = await startApp(app.dir, { NODE_ENV: 'production', MAIL_MAILER: undefined, MAIL_URL: undefined, MAIL_FROM: undefined, QUEUE_DRIVER: 'database' })
  }, 60_000)

  afterAll(async () => {
    await stopApp(server?.child)
    app?.remove()
  })

  // The mail is queued without reading the mail settings; the worker that delivers it fails its job, saying what to
  // set (runtime/test/mail/smtpMailer.test.ts). A 500 for a known email only would tell who has an account.
  it('registers (202), and answers forgot-password for a known and an unknown email alike', async () => {
    const registration = { name: 'Ada', email: 'ada@example.com', password: PASSWORD, password_confirmation: PASSWORD }
    const registered = await new Browser(server.url).json('POST', '/register', registration)
    expect(registered.status).toBe(202)
    const ask = (address: string) =>
      fetch(`${server.url}/forgot-password`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: address }) })

    const known = await ask('ada@example.com')
    const unknown = await ask('nobody@example.com')
    expect([known.status, await known.json()]).toEqual([200, { message: SENT }])
    expect([unknown.status, await unknown.json()]).toEqual([200, { message: SENT }])
  })
})

describe('password reset in Chromium', () => {
  let app: FwApp
  let smtp: TestSmtpServer
  let server: { url: string; child: ChildProcess }
  let browser: ChromiumBrowser

  beforeAll(async () => {
    smtp = await startSmtpServer()
    app = await generatedApp()
    const env = { MAIL_MAILER: 'smtp', MAIL_URL: smtp.url, MAIL_FROM: 'Fw <hello@example.test>', QUEUE_DRIVER: 'sync' }
    expect((await app.fw(['migrate'], env)).stderr).toBe('')
    server = await startApp(app.dir, env)
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS })
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await stopApp(server?.child)
    await smtp?.close()
    app?.remove()
  })

  it('walks forgot password, the mailed link, a new password, then signs in with it', async () => {
    const registered = await new Browser(server.url).json('POST', '/register', { name: 'Ada', email: 'ada@example.com', password: PASSWORD, password_confirmation: PASSWORD })
    expect(registered.status).toBe(202)
    const page = await browser.newPage()

    await page.goto(`${server.url}/login`)
    await page.getByRole('link', { name: 'Forgot your password?' }).click()
    await page.waitForURL(`${server.url}/forgot-password`)
    await page.getByLabel('Email').fill('ada@example.com')
    await page.getByRole('button', { name: 'Email me a reset link' }).click()
    await page.getByText(SENT).waitFor()

    // The link from the mail the SMTP server took, opened at this server (APP_URL names the app's public address).
    const link = resetLink(smtp.received.at(-1)!)
    await page.goto(server.url + link)
    expect(await page.getByLabel('Email').inputValue()).toBe('ada@example.com')
    await page.getByLabel('New password').fill(NEW_PASSWORD)
    await page.getByLabel('Confirm password').fill(NEW_PASSWORD)
    await page.getByRole('button', { name: 'Reset password' }).click()
    await page.waitForURL(`${server.url}/login`)
    await page.getByText('Your password has been reset').waitFor()

    await page.getByLabel('Email').fill('ada@example.com')
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByText('These credentials do not match our records.').waitFor()
    await page.getByLabel('Password').fill(NEW_PASSWORD)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL(`${server.url}/me`)
    await page.getByText('You are signed in as ada@example.com.').waitFor()
    expect(smtp.received.at(-1)!.raw).toMatch(/^Subject: Your password was changed\r?$/m)
  }, 60_000)
})
