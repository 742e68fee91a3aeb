// The reset mail, queued, as make:auth's ResetPasswordMail sends it: its shouldSend() (passwordResetIsCurrent) is asked
// by the worker just before sending, so that a link a later request replaced (or one used or expired) is never mailed,
// not even by fw queue:retry. SQLite's queue, a real worker, a real SMTP server.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Kysely } from 'kysely'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { hashPassword } from '../../src/auth/password.js'
import { passwordResetIsCurrent, requestPasswordReset, resetPassword, type PasswordResetLink } from '../../src/auth/passwordReset.js'
import { Container } from '../../src/container/Container.js'
import { createDatabase } from '../../src/database/createDatabase.js'
import type { Request } from '../../src/http/Request.js'
import type { Logger } from '../../src/log/Logger.js'
import { mail, Mailable } from '../../src/mail.js'
import { loadJobs } from '../../src/queue/jobRegistry.js'
import { Worker } from '../../src/queue/Worker.js'
import { queue } from '../../src/queue.js'
import { generateAppKey } from '../../src/session/generateAppKey.js'
import { startSmtpServer, type TestSmtpServer } from '../support/smtpServer.js'
import { createAuthTables } from './authApp.js'

/** As make:auth's App/Mail/ResetPasswordMail.ts: the link, and the reset it belongs to. */
class ResetPasswordMail extends Mailable<{ reset: PasswordResetLink; url: string }> {
  subject = 'Reset your password'

  override shouldSend(): Promise<boolean> {
    return passwordResetIsCurrent(this.data.reset)
  }

  html(): string {
    return `<p>Hello ${this.data.reset.user.name}: ${this.data.url}</p>`
  }

  override text(): string {
    return `Hello ${this.data.reset.user.name}: ${this.data.url}`
  }
}

const ENV = ['APP_KEY', 'QUEUE_DRIVER', 'MAIL_MAILER', 'MAIL_URL', 'MAIL_FROM']
const NOT_SENT = 'ResetPasswordMail not sent: its shouldSend() said false (out of date by the time it was to be sent)'

let folder: string
let db: Kysely<any>
let smtp: TestSmtpServer
let ip = 0
/** What the worker and the jobs logged: the worker's lines, and those of the app's log (console). */
const lines: string[] = []
const logger: Logger = { info: (message) => lines.push(message), error: (message, ...details) => lines.push(`${message} ${details.map(String).join(' ')}`) }
const notSent = () => lines.filter((line) => line.includes(NOT_SENT))

/** "Forgot your password?" for Ada, and the mail queued as the generated controller queues it. */
async function forgotPassword(): Promise<string> {
  const link = (await requestPasswordReset({ ip: () => `192.0.2.${++ip}` } as unknown as Request, 'ada@example.com'))!
  const url = `http://shop.example.test/reset-password/${link.token}?email=${encodeURIComponent(link.user.email)}`
  await mail.to(link.user.email).send(new ResetPasswordMail({ reset: link, url }))
  return link.token
}

/** Runs the next job, as `fw queue:work` would. */
async function work(): Promise<void> {
  await new Worker(queue.stored({ worker: true }), await loadJobs(join(folder, 'Jobs')), { logger, maxJobs: 1, pollMs: 20 }).run()
}

/** The tokens of the links mailed, in order (their quoted-printable undone). */
const mailed = () => smtp.received.map((message) => /reset-password\/([\w-]{43})/.exec(message.raw.replace(/=\r?\n/g, ''))?.[1])

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'fw-reset-mail-'))
  smtp = await startSmtpServer()
  Object.assign(process.env, { APP_KEY: generateAppKey(), QUEUE_DRIVER: 'database', MAIL_MAILER: 'smtp', MAIL_URL: smtp.url, MAIL_FROM: 'Shop <hello@shop.example.test>' })
  db = createDatabase(`sqlite:${join(folder, 'database.sqlite')}`)
  vi.spyOn(console, 'log').mockImplementation((line: unknown) => void lines.push(String(line)))
  Container.setInstance(new Container().instance('db', db))
})
afterAll(async () => {
  vi.restoreAllMocks()
  queue.restore()
  Container.setInstance(undefined)
  for (const key of ENV) delete process.env[key]
  await db.destroy()
  await smtp.close()
  rmSync(folder, { recursive: true, force: true })
})
beforeEach(async () => {
  await createAuthTables(db)
  await db.insertInto('users').values({ name: 'Ada', email: 'ada@example.com', password_hash: await hashPassword('correct horse battery staple') }).execute()
  await queue.stored().counts()
  await db.deleteFrom('fw_jobs').execute()
  smtp.received.length = 0
  smtp.refuse = undefined
  lines.length = 0
})

describe("the queued reset mail asks shouldSend() in the worker", () => {
  it('two requests, then the first mail runs: nothing is sent (one line says why); the second runs: its link is sent', async () => {
    await forgotPassword()
    const second = await forgotPassword()

    await work()
    expect(smtp.received).toEqual([])
    expect(notSent()).toHaveLength(1)
    expect((await queue.stored().counts())).toEqual({ waiting: 1, active: 0, failed: 0 })

    await work()
    expect(mailed()).toEqual([second])
    expect((await queue.stored().counts())).toEqual({ waiting: 0, active: 0, failed: 0 })
  })

  it('fw queue:retry of a failed reset mail sends nothing once a later link replaced it', async () => {
    smtp.refuse = { code: 550, message: 'Mailbox unavailable' }
    await forgotPassword()
    await work()
    expect((await queue.stored().failed()).map((job) => job.error.message)).toEqual([expect.stringContaining('550')])

    smtp.refuse = undefined
    const later = await forgotPassword()
    await work()
    expect(mailed()).toEqual([later])

    expect(await queue.stored().retry('all')).toBe(1)
    await work()
    expect(mailed()).toEqual([later])
    expect(notSent()).toHaveLength(1)
    expect((await queue.stored().counts())).toEqual({ waiting: 0, active: 0, failed: 0 })
  })

  it('sends nothing for a link used before the mail went out', async () => {
    const token = await forgotPassword()
    expect(await resetPassword({ email: 'ada@example.com', token, password: 'a brand new passphrase' })).toBeDefined()
    await work()
    expect(smtp.received).toEqual([])
    expect(notSent()).toHaveLength(1)
  })
})
