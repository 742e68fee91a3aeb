// Encrypted job payloads, on both stored queues: SQLite's fw_jobs and PostgreSQL's pg-boss. A queued mail (and a job
// with `static encrypted = true`) is stored sealed with APP_KEY, a worker opens it with APP_KEY or a key of
// APP_PREVIOUS_KEYS, and one no key opens fails at once, saying why. The mail goes through a real SMTP server.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql, type Kysely } from 'kysely'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { Container } from '../../src/container/Container.js'
import { createDatabase } from '../../src/database/createDatabase.js'
import { queueOverview } from '../../src/dash/queueOverview.js'
import type { Logger } from '../../src/log/Logger.js'
import { mail, Mailable } from '../../src/mail.js'
import { loadJobs } from '../../src/queue/jobRegistry.js'
import { Worker } from '../../src/queue/Worker.js'
import { Job, queue } from '../../src/queue.js'
import { generateAppKey } from '../../src/session/generateAppKey.js'
import { startPostgres, type TestPostgres } from '../support/postgres.js'
import { startSmtpServer, type TestSmtpServer } from '../support/smtpServer.js'

/** The secret of this file: what must never be readable in a jobs table. */
const TOKEN = 'Zq3s9XkTOKENxHq4wYb1uS0cVvJt7mRrLpNdEaGiKo8'
const LINK = `http://shop.example.test/reset-password/${TOKEN}?email=ada%40example.com`

class LinkMail extends Mailable<{ url: string }> {
  subject = 'Your link'

  html(): string {
    return `<p><a href="${this.data.url}">Reset your password</a></p>`
  }

  override text(): string {
    return `Reset your password: ${this.data.url}`
  }
}

/** What the jobs of this file received. */
const received: unknown[] = []

class InviteJob extends Job<{ token: string }> {
  static override encrypted = true

  handle(payload: { token: string }): void {
    received.push(payload)
  }
}

class PlainJob extends Job<{ note: string }> {
  handle(payload: { note: string }): void {
    received.push(payload)
  }
}

/** A received mail's text, its quoted-printable undone: what a mail program shows. */
function decoded(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
}

const KEY_A = generateAppKey()
const KEY_B = generateAppKey()
const KEY_C = generateAppKey()
const ENV = ['APP_KEY', 'APP_PREVIOUS_KEYS', 'QUEUE_DRIVER', 'DATABASE_URL', 'MAIL_MAILER', 'MAIL_URL', 'MAIL_FROM']

let postgres: TestPostgres
let folder: string
let smtp: TestSmtpServer
beforeAll(async () => {
  postgres = await startPostgres()
  folder = mkdtempSync(join(tmpdir(), 'fw-encrypted-jobs-'))
  smtp = await startSmtpServer()
}, 60_000)
afterAll(async () => {
  await smtp?.close()
  postgres?.stop()
  if (folder) rmSync(folder, { recursive: true, force: true })
})

describe.each([
  {
    name: 'SQLite (fw_jobs)',
    url: () => `sqlite:${join(folder, 'jobs.sqlite')}`,
    rows: (db: Kysely<any>) => sql<Record<string, unknown>>`select * from fw_jobs`.execute(db),
    clear: (db: Kysely<any>) => sql`delete from fw_jobs`.execute(db),
  },
  {
    name: 'PostgreSQL (pgboss.job)',
    url: () => postgres.url,
    rows: (db: Kysely<any>) => sql<Record<string, unknown>>`select * from pgboss.job`.execute(db),
    clear: (db: Kysely<any>) => sql`delete from pgboss.job`.execute(db),
  },
])('encrypted job payloads on $name', ({ url, rows, clear }) => {
  let db: Kysely<any>
  const lines: string[] = []
  const logger: Logger = { info: (message) => lines.push(message), error: (message, ...details) => lines.push(`${message} ${details.map(String).join(' ')}`) }

  /** Everything the queue's table holds, every column of every row, as text. */
  const stored = async () => JSON.stringify((await rows(db)).rows)

  /** Runs one job, as `fw queue:work` does, with the keys of the environment at that moment. */
  async function work(): Promise<void> {
    // Fw's own jobs (SendQueuedMail) and this file's.
    const jobs = new Map([...(await loadJobs(join(folder, 'no-jobs'))), ['InviteJob', InviteJob], ['PlainJob', PlainJob]])
    const worker = new Worker(queue.stored({ worker: true }), jobs, { logger, maxJobs: 1, pollMs: 20 })
    const stopper = setTimeout(() => worker.stop(), 10_000)
    await worker.run()
    clearTimeout(stopper)
  }

  beforeAll(async () => {
    for (const key of ENV) delete process.env[key]
    const databaseUrl = url()
    Object.assign(process.env, { QUEUE_DRIVER: 'database', MAIL_MAILER: 'smtp', MAIL_URL: smtp.url, MAIL_FROM: 'Shop <hello@shop.example.test>' })
    if (databaseUrl.startsWith('postgres')) process.env.DATABASE_URL = databaseUrl
    db = createDatabase(databaseUrl)
    Container.setInstance(new Container().instance('db', db))
  })
  afterAll(async () => {
    await (queue.keepsJobs() ? queue.stored().close?.() : undefined)
    queue.restore()
    Container.setInstance(undefined)
    for (const key of ENV) delete process.env[key]
    await db?.destroy()
  })
  beforeEach(async () => {
    process.env.APP_KEY = KEY_A
    delete process.env.APP_PREVIOUS_KEYS
    smtp.received.length = 0
    received.length = 0
    lines.length = 0
    // Made now, the queue supervises as a worker's does; counts() makes its table.
    await queue.stored({ worker: true }).counts()
    await clear(db)
  })

  it('stores a queued mail sealed: its token (and its recipient) nowhere in the row; a worker still sends it, link and all', async () => {
    await mail.to('ada@example.com').send(new LinkMail({ url: LINK }))
    const row = await stored()
    expect(row).toContain('fw:encrypted')
    expect(row).not.toContain(TOKEN)
    expect(row).not.toContain('ada@example.com')
    expect(row).not.toContain('Reset your password')

    await work()
    expect(smtp.received).toHaveLength(1)
    expect(smtp.received[0]!.to).toEqual(['ada@example.com'])
    expect(decoded(smtp.received[0]!.raw)).toContain(LINK)
  })

  it('runs a payload sealed with a key that APP_PREVIOUS_KEYS lists after the key was rotated', async () => {
    await mail.to('ada@example.com').send(new LinkMail({ url: LINK }))
    await InviteJob.dispatch({ token: TOKEN })
    Object.assign(process.env, { APP_KEY: KEY_B, APP_PREVIOUS_KEYS: `${KEY_C}, ${KEY_A}` })

    await work()
    await work()
    expect(smtp.received.map((message) => decoded(message.raw).includes(LINK))).toEqual([true])
    expect(received).toEqual([{ token: TOKEN }])
    expect((await queue.stored().counts())).toEqual({ waiting: 0, active: 0, failed: 0 })
  })

  it('fails a payload no key opens at once (no retry), saying why, and the failed job shows nothing of it', async () => {
    await mail.to('ada@example.com').send(new LinkMail({ url: LINK }))
    Object.assign(process.env, { APP_KEY: KEY_B, APP_PREVIOUS_KEYS: KEY_C })

    await work()
    expect(smtp.received).toEqual([])
    const [failed, ...others] = await queue.stored().failed()
    expect(others).toEqual([])
    expect(failed!.name).toBe('SendQueuedMail')
    expect(failed!.error.name).toBe('UnrecoverableJobError')
    expect(failed!.error.message).toBe(
      "SendQueuedMail's payload is encrypted with a key that is neither APP_KEY nor one of APP_PREVIOUS_KEYS (or it was altered), so it cannot be read: " +
        'after a key change, list the old key in APP_PREVIOUS_KEYS (comma-separated) and fw queue:retry the job',
    )
    expect(lines.join('\n')).toMatch(/SendQueuedMail #\S+ threw: it failed \(fw queue:failed lists it\)/)
    // What fw queue:failed and the dashboard's queue page read.
    expect(JSON.stringify(failed)).not.toContain(TOKEN)
    expect(JSON.stringify(await queueOverview())).not.toContain(TOKEN)
    expect(await stored()).not.toContain(TOKEN)

    // Once the old key is listed again, fw queue:retry sends it.
    process.env.APP_PREVIOUS_KEYS = KEY_A
    expect(await queue.stored().retry('all')).toBe(1)
    await work()
    expect(smtp.received.map((message) => decoded(message.raw).includes(LINK))).toEqual([true])
  })

  it('seals the payload of a job with static encrypted = true, and only of such a job', async () => {
    await InviteJob.dispatch({ token: TOKEN })
    await PlainJob.dispatch({ note: 'not a secret' })
    const row = await stored()
    expect(row).not.toContain(TOKEN)
    expect(row).toContain('not a secret')

    await work()
    await work()
    expect(received).toEqual([{ token: TOKEN }, { note: 'not a secret' }])
  })

  it('queues no mail without APP_KEY, stores nothing, and logs what needs the key (the request goes on)', async () => {
    delete process.env.APP_KEY
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    try {
      await mail.to('ada@example.com').send(new LinkMail({ url: LINK }))
      const lines = logged.mock.calls.map((call) => call.map((part) => (part instanceof Error ? part.message : String(part))).join(' '))
      expect(lines.join('\n')).toContain(
        'APP_KEY is not set: queued mail and encrypted jobs (static encrypted = true) need it. Run npx fw key:generate to put one in .env',
      )
    } finally {
      logged.mockRestore()
    }
    expect(await stored()).toBe('[]')
    await expect(InviteJob.dispatch({ token: TOKEN })).rejects.toThrow('APP_KEY is not set')
  })
})

describe('encrypted jobs where nothing is stored', () => {
  afterAll(() => {
    queue.restore()
    delete process.env.QUEUE_DRIVER
  })

  it('runs them as they are under QUEUE_DRIVER=sync, without a key', async () => {
    queue.restore()
    process.env.QUEUE_DRIVER = 'sync'
    received.length = 0
    await InviteJob.dispatch({ token: TOKEN })
    expect(received).toEqual([{ token: TOKEN }])
  })

  it('records the payload as it is in queue.fake(), to assert on', async () => {
    const jobs = queue.fake()
    await InviteJob.dispatch({ token: TOKEN })
    jobs.assertPushed(InviteJob, (payload) => payload.token === TOKEN)
  })
})
