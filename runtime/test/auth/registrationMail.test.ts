// Registration meets mail (issue 37): an address the validator accepts is one the mailer sends to, and a mail that
// cannot be sent never turns the written account into a 500. Over real HTTP, on a real SQLite file and SMTP server.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Kysely } from 'kysely'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { registerUser, validateRegistration } from '../../src/auth.js'
import { checkEmail, checkRegistration } from '../../src/auth/validateAuthInput.js'
import { Container } from '../../src/container/Container.js'
import { createDatabase } from '../../src/database/createDatabase.js'
import { Response } from '../../src/http/Response.js'
import { ValidationError } from '../../src/http/ValidationError.js'
import { parseAddress } from '../../src/mail/address.js'
import { isEmailAddress, mail, Mailable } from '../../src/mail.js'
import { Router } from '../../src/routing/Router.js'
import type { RunningServer } from '../../src/server/listen.js'
import { serveNode } from '../../src/server/serveNode.js'
import { freePort } from '../support/freePort.js'
import { startSmtpServer, type TestSmtpServer } from '../support/smtpServer.js'
import { listenOn } from '../support/servers.js'
import { createAuthTables } from './authApp.js'

const PASSWORD = 'correct horse battery staple'
const ENV = ['MAIL_MAILER', 'MAIL_URL', 'MAIL_FROM', 'MAIL_TIMEOUT', 'QUEUE_DRIVER']

class VerifyEmailMail extends Mailable<{ name: string }> {
  subject = 'Verify your email address'

  html(): string {
    return `<p>Hello ${this.data.name}, follow the link.</p>`
  }
}

let folder: string
let db: Kysely<any>
let smtp: TestSmtpServer
let server: RunningServer

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'fw-register-mail-'))
  db = createDatabase<any>(`sqlite:${join(folder, 'database.sqlite')}`)
  Container.setInstance(new Container().instance('db', db))
  await createAuthTables(db)
  smtp = await startSmtpServer()
  // make:auth's registration with email verification, in short: write the account, then mail its owner.
  const router = new Router(Container.getInstance(), { logger: { error: () => undefined } })
  router.post('/register', async (request) => {
    const { data, errors } = validateRegistration(request, { confirmed: true })
    if (errors) throw new ValidationError(errors)
    const user = await registerUser(request, data)
    if (user) await mail.to(user.email).send(new VerifyEmailMail({ name: user.name }))
    return Response.json({ message: 'Check your email.' }, 202)
  })
  server = await listenOn(serveNode, router)
})
afterEach(() => {
  for (const key of ENV) delete process.env[key]
  vi.restoreAllMocks()
})
afterAll(async () => {
  await server?.close()
  await smtp?.close()
  Container.setInstance(undefined)
  await db?.destroy()
  rmSync(folder, { recursive: true, force: true })
})

const register = async (email: string) => {
  const response = await fetch(`${server.url}/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Ada', email, password: PASSWORD, password_confirmation: PASSWORD }),
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}
const account = (email: string) => db.selectFrom('users').select('email').where('email', '=', email).executeTakeFirst()

describe('one grammar of an email address, for validation and mail', () => {
  it.each([
    ['ada@example.com', true],
    ['ädä@exämple.de', true],
    ['ada+shop@mail.example.com', true],
    ['ada(work)@example.com', false],
    ['ada<eve>@example.com', false],
    ['"ada"@example.com', false],
    ['ada,eve@example.com', false],
    ['ada;eve@example.com', false],
    ['ada\\eve@example.com', false],
    ['ada@[127.0.0.1]', false],
    ['ada@localhost', false],
    ['ada@example.', false],
    ['ada@@example.com', false],
  ])('%s: valid %s, and the validators and the mailer agree', (email, valid) => {
    expect(isEmailAddress(email)).toBe(valid)
    const registration = checkRegistration({ name: 'Ada', email, password: PASSWORD })
    expect(registration.errors?.email).toEqual(valid ? undefined : ['The email must be a valid email address.'])
    expect(checkEmail({ email }).errors === undefined).toBe(valid)
    const mailed = () => parseAddress('the to address', email)
    if (valid) expect(mailed()).toEqual({ email })
    else expect(mailed).toThrow(/is not an email address/)
  })
})

describe('POST /register, then a mail to the new account', () => {
  it('answers 422 to an address the mailer would refuse, and writes no account', async () => {
    Object.assign(process.env, { QUEUE_DRIVER: 'sync', MAIL_MAILER: 'smtp', MAIL_URL: smtp.url, MAIL_FROM: 'Acme <hello@acme.test>' })
    for (const email of ['eve(x)@example.com', 'eve<x>@example.com']) {
      expect(await register(email)).toEqual({ status: 422, body: expect.objectContaining({ errors: { email: ['The email must be a valid email address.'] } }) })
      expect(await account(email)).toBeUndefined()
    }
    expect(smtp.received).toEqual([])

    expect(await register('grace@example.com')).toEqual({ status: 202, body: { message: 'Check your email.' } })
    expect(smtp.received.map((received) => received.to)).toEqual([['grace@example.com']])
  })

  it('answers as it would when the mail server refuses the mail or the connection, and logs why', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    Object.assign(process.env, { QUEUE_DRIVER: 'sync', MAIL_MAILER: 'smtp', MAIL_URL: smtp.url, MAIL_FROM: 'Acme <hello@acme.test>', MAIL_TIMEOUT: '1' })
    smtp.refuse = { code: 550, message: 'Mailbox unavailable' }
    try {
      expect(await register('hopper@example.com')).toEqual({ status: 202, body: { message: 'Check your email.' } })
    } finally {
      smtp.refuse = undefined
    }
    expect(await account('hopper@example.com')).toEqual({ email: 'hopper@example.com' })

    process.env.MAIL_URL = `smtp://127.0.0.1:${await freePort()}`
    expect(await register('lovelace@example.com')).toEqual({ status: 202, body: { message: 'Check your email.' } })
    expect(await account('lovelace@example.com')).toEqual({ email: 'lovelace@example.com' })

    const lines = logged.mock.calls.map((call) => call.map(String).join(' '))
    expect(lines).toEqual([
      expect.stringMatching(/\[fw\] the mail VerifyEmailMail could not be queued or sent; the caller goes on without it:.*Mailbox unavailable/s),
      expect.stringMatching(/\[fw\] the mail VerifyEmailMail could not be queued or sent; the caller goes on without it:.*ECONNREFUSED/s),
    ])
  })
})
