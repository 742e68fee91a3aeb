import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql, type Kysely } from 'kysely'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { Container } from '../../src/container/Container.js'
import { createDatabase } from '../../src/database/createDatabase.js'
import type { Logger } from '../../src/log/Logger.js'
import { mail, Mailable } from '../../src/mail.js'
import { DatabaseQueue } from '../../src/queue/DatabaseQueue.js'
import { openPayload } from '../../src/queue/encryptedPayload.js'
import { loadJobs, type JobRegistry } from '../../src/queue/jobRegistry.js'
import { Worker } from '../../src/queue/Worker.js'
import { queue } from '../../src/queue.js'
import { generateAppKey } from '../../src/session/generateAppKey.js'
import { html } from '../../src/view/html.js'
import { freePort } from '../support/freePort.js'
import { startSilentServer, startSmtpServer, type TestSmtpServer } from '../support/smtpServer.js'

class WelcomeMail extends Mailable<{ name: string }> {
  subject = `Welcome, ${this.data.name}`

  html() {
    return html`<p>Hello ${this.data.name}</p>`
  }

  override text() {
    return `Hello ${this.data.name}`
  }
}

let folder: string
let database: Kysely<any>
let smtp: TestSmtpServer
/** What a worker runs: an app with no job of its own, so Fw's SendQueuedMail alone. */
let jobs: JobRegistry
const MAIL_ENV = ['MAIL_MAILER', 'MAIL_URL', 'MAIL_FROM', 'MAIL_TIMEOUT', 'QUEUE_DRIVER', 'NODE_ENV']

const rows = async () => (await sql<Record<string, any>>`select * from fw_jobs order by id`.execute(database)).rows
const quietLog: Logger = { info: () => undefined, error: () => undefined }
/** Runs the next job due, as `fw queue:work --once` does; how long it took, in milliseconds. */
async function workOnce(): Promise<number> {
  const started = performance.now()
  expect(await new Worker(new DatabaseQueue(), jobs, { logger: quietLog, once: true }).run()).toBe('once')
  return performance.now() - started
}

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'fw-mail-'))
  mkdirSync(join(folder, 'Jobs'))
  database = createDatabase(`sqlite:${join(folder, 'database.sqlite')}`)
  Container.setInstance(new Container().instance('db', database))
  smtp = await startSmtpServer()
  jobs = await loadJobs(join(folder, 'Jobs'))
  // Queued mail is stored encrypted with it.
  process.env.APP_KEY = generateAppKey()
})
afterAll(async () => {
  delete process.env.APP_KEY
  await smtp.close()
  Container.setInstance(undefined)
  await database.destroy()
  rmSync(folder, { recursive: true, force: true })
})
beforeEach(() => {
  Object.assign(process.env, { QUEUE_DRIVER: 'database', MAIL_MAILER: 'smtp', MAIL_URL: smtp.url, MAIL_FROM: 'Acme <hello@acme.test>', MAIL_TIMEOUT: '1' })
})
afterEach(async () => {
  for (const key of MAIL_ENV) delete process.env[key]
  smtp.received.length = 0
  smtp.refuse = undefined
  queue.restore()
  await sql`delete from fw_jobs`.execute(database)
})

describe('MAIL_MAILER=smtp', () => {
  it('queues the rendered message as SendQueuedMail, which a worker of an app with no job of its own sends', async () => {
    await mail.to('Ada Lovelace <ada@example.com>').cc('grace@example.com').bcc({ email: 'audit@acme.test' }).send(new WelcomeMail({ name: 'Ada' }))
    expect(smtp.received).toEqual([])
    const [row] = await rows()
    expect(row).toMatchObject({ name: 'SendQueuedMail', state: 'ready', max_attempts: 5, backoff: 10 })
    // Stored sealed with APP_KEY (see encryptedPayload.test.ts); opened, it is the message.
    expect(row!.payload).not.toContain('ada@example.com')
    expect(openPayload('SendQueuedMail', JSON.parse(row!.payload))).toEqual({
      mailable: 'WelcomeMail',
      // The default sender: MAIL_FROM of the worker that delivers it.
      from: null,
      to: [{ name: 'Ada Lovelace', email: 'ada@example.com' }],
      cc: [{ email: 'grace@example.com' }],
      bcc: [{ email: 'audit@acme.test' }],
      subject: 'Welcome, Ada',
      html: '<p>Hello Ada</p>',
      text: 'Hello Ada',
    })

    await workOnce()
    expect(await rows()).toEqual([])
    expect(smtp.received).toHaveLength(1)
    const [{ from, to, raw }] = smtp.received as [(typeof smtp.received)[0]]
    expect([from, to]).toEqual(['hello@acme.test', ['ada@example.com', 'grace@example.com', 'audit@acme.test']])
    const end = raw.indexOf('\r\n\r\n')
    const [headers, body] = [raw.slice(0, end).split('\r\n'), raw.slice(end)]
    expect(headers).toEqual(expect.arrayContaining(['From: Acme <hello@acme.test>', 'To: Ada Lovelace <ada@example.com>', 'Cc: grace@example.com', 'Subject: Welcome, Ada']))
    expect(headers.join('\n')).not.toContain('audit@acme.test')
    expect(headers).toContain('Content-Type: multipart/alternative;')
    expect(body).toMatch(/Content-Type: text\/plain[^]*\r\n\r\nHello Ada\r\n[^]*Content-Type: text\/html[^]*\r\n\r\n<p>Hello Ada<\/p>\r\n/)
  })

  it('sends at once with sendNow(), in this process', async () => {
    await mail.to('ada@example.com').sendNow(new WelcomeMail({ name: 'Ada' }))
    expect(smtp.received.map(({ to }) => to)).toEqual([['ada@example.com']])
    expect(await rows()).toEqual([])
  })

  it('fails the job at once when the server refuses the message for good (550)', async () => {
    smtp.refuse = { code: 550, message: 'No such user here' }
    await mail.to('nobody@example.com').send(new WelcomeMail({ name: 'Nobody' }))
    await workOnce()
    const [row] = await rows()
    expect(row).toMatchObject({ name: 'SendQueuedMail', state: 'failed', attempts: 1, max_attempts: 5 })
    const error = JSON.parse(row!.last_error)
    expect(error.name).toBe('UnrecoverableJobError')
    expect(error.message).toMatch(/^The mail server at 127\.0\.0\.1:\d+ refused WelcomeMail to nobody@example\.com for good: .*550 No such user here/)
  })

  it('runs the job again after its backoff when the server refuses for now (451)', async () => {
    smtp.refuse = { code: 451, message: 'Try again later' }
    await mail.to('ada@example.com').send(new WelcomeMail({ name: 'Ada' }))
    await workOnce()
    const [row] = await rows()
    expect(row).toMatchObject({ state: 'ready', attempts: 1 })
    // Attempt 2 is due after the backoff, 10 s.
    expect(row!.available_at - Date.now()).toBeGreaterThan(5_000)
    expect(JSON.parse(row!.last_error).message).toMatch(/^Could not send WelcomeMail to ada@example\.com through the mail server at 127\.0\.0\.1:\d+: .*451 Try again later/)
  })

  it('runs the job again when the connection is refused, then fails it once its attempts are spent', async () => {
    process.env.MAIL_URL = `smtp://127.0.0.1:${await freePort()}`
    await mail.to('ada@example.com').send(new WelcomeMail({ name: 'Ada' }), { attempts: 2, backoff: 0 })
    await workOnce()
    expect(await rows()).toMatchObject([{ state: 'ready', attempts: 1 }])
    await workOnce()
    const [row] = await rows()
    expect(row).toMatchObject({ state: 'failed', attempts: 2 })
    expect(JSON.parse(row!.last_error).message).toMatch(/ECONNREFUSED/)
  })

  it('gives up on a server that accepts and never greets within MAIL_TIMEOUT, runs the job again, then fails it', async () => {
    const silent = await startSilentServer()
    try {
      process.env.MAIL_URL = silent.url
      await mail.to('ada@example.com').send(new WelcomeMail({ name: 'Ada' }), { attempts: 2, backoff: 0 })
      // MAIL_TIMEOUT=1: each run ends well before Fw's default 10 s.
      expect(await workOnce()).toBeLessThan(5_000)
      expect(await rows()).toMatchObject([{ state: 'ready', attempts: 1 }])
      expect(await workOnce()).toBeLessThan(5_000)
      const [row] = await rows()
      expect(row).toMatchObject({ state: 'failed', attempts: 2 })
      expect(JSON.parse(row!.last_error).message).toMatch(/\(ETIMEDOUT\)$/)
    } finally {
      await silent.close()
    }
  })
})

describe('mail settings missing where the mail is queued', () => {
  const NO_MAILER = 'MAIL_MAILER is not set, and in production Fw will not write mail to the log instead of sending it: set MAIL_MAILER=smtp and MAIL_URL=smtp://user:pass@host:port'

  it('in production without MAIL_MAILER, queues the mail, and the worker fails its job after 1 attempt, saying what to set', async () => {
    for (const key of ['MAIL_MAILER', 'MAIL_URL', 'MAIL_FROM']) delete process.env[key]
    process.env.NODE_ENV = 'production'
    await expect(mail.to('ada@example.com').send(new WelcomeMail({ name: 'Ada' }))).resolves.toBeUndefined()
    expect(await rows()).toMatchObject([{ name: 'SendQueuedMail', state: 'ready', attempts: 0 }])

    await workOnce()
    const [row] = await rows()
    expect(row).toMatchObject({ name: 'SendQueuedMail', state: 'failed', attempts: 1, max_attempts: 5 })
    // What fw queue:failed lists.
    const [failed] = await new DatabaseQueue().failed()
    expect(failed).toMatchObject({ name: 'SendQueuedMail', attempts: 1, error: { name: 'UnrecoverableJobError', message: NO_MAILER } })
    expect(smtp.received).toEqual([])
  })

  it('under smtp without MAIL_FROM, queues a mail of the default sender and fails its job at once; a class with its own from is sent', async () => {
    delete process.env.MAIL_FROM
    class ReceiptMail extends WelcomeMail {
      override from = 'Billing <billing@acme.test>'
    }
    await mail.to('ada@example.com').send(new WelcomeMail({ name: 'Ada' }))
    await mail.to('ada@example.com').send(new ReceiptMail({ name: 'Ada' }))
    await workOnce()
    await workOnce()
    const [row] = await rows()
    expect(row).toMatchObject({ state: 'failed', attempts: 1 })
    expect(JSON.parse(row!.last_error)).toMatchObject({ name: 'UnrecoverableJobError', message: expect.stringMatching(/^MAIL_FROM is not set: /) })
    expect(smtp.received.map((received) => received.from)).toEqual(['billing@acme.test'])
  })

  it('sendNow() fails at once, in the caller', async () => {
    for (const key of ['MAIL_MAILER', 'MAIL_URL', 'MAIL_FROM']) delete process.env[key]
    process.env.NODE_ENV = 'production'
    await expect(mail.to('ada@example.com').sendNow(new WelcomeMail({ name: 'Ada' }))).rejects.toThrow(NO_MAILER)
    expect(await rows()).toEqual([])
  })
})
