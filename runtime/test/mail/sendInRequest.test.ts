import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql, type Kysely } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Container } from '../../src/container/Container.js'
import { createDatabase } from '../../src/database/createDatabase.js'
import { mail, Mailable } from '../../src/mail.js'
import { DatabaseQueue } from '../../src/queue/DatabaseQueue.js'
import { loadJobs } from '../../src/queue/jobRegistry.js'
import { Worker } from '../../src/queue/Worker.js'
import { queue } from '../../src/queue.js'
import { Router } from '../../src/routing/Router.js'
import type { RunningServer } from '../../src/server/listen.js'
import { serveNode } from '../../src/server/serveNode.js'
import { generateAppKey } from '../../src/session/generateAppKey.js'
import { until } from '../support/fwApp.js'
import { freePort } from '../support/freePort.js'
import { listenOn } from '../support/servers.js'
import { startSilentServer, startSmtpServer, type TestSmtpServer } from '../support/smtpServer.js'

class WelcomeMail extends Mailable<{ name: string }> {
  subject = `Welcome, ${this.data.name}`

  html(): string {
    return `<p>Hello ${this.data.name}</p>`
  }
}

/** MAIL_TIMEOUT in this file, in seconds: an answer that waited for the mail server would take at least this long. */
const MAIL_TIMEOUT = 1
const ENV = ['MAIL_MAILER', 'MAIL_URL', 'MAIL_FROM', 'MAIL_TIMEOUT', 'QUEUE_DRIVER', 'APP_KEY']

let folder: string
let database: Kysely<any>
let smtp: TestSmtpServer
let server: RunningServer
let worker: Worker
let working: Promise<unknown>

const rows = async () => (await sql<Record<string, any>>`select * from fw_jobs order by id`.execute(database)).rows

/** POSTs /register over the socket; its status and body, and whether it came before MAIL_TIMEOUT elapsed. */
async function register(): Promise<{ status: number; body: string; beforeTimeout: boolean }> {
  const started = performance.now()
  const response = await fetch(`${server.url}/register`, { method: 'POST' })
  const body = await response.text()
  return { status: response.status, body, beforeTimeout: performance.now() - started < MAIL_TIMEOUT * 1000 }
}

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'fw-mail-request-'))
  mkdirSync(join(folder, 'Jobs'))
  database = createDatabase(`sqlite:${join(folder, 'database.sqlite')}`)
  Container.setInstance(new Container().instance('db', database))
  smtp = await startSmtpServer()
  Object.assign(process.env, { APP_KEY: generateAppKey(), QUEUE_DRIVER: 'database', MAIL_MAILER: 'smtp', MAIL_URL: smtp.url, MAIL_FROM: 'Acme <hello@acme.test>', MAIL_TIMEOUT: String(MAIL_TIMEOUT) })
  const router = new Router(Container.getInstance())
  router.post('/register', async () => {
    await mail.to('ada@example.com').send(new WelcomeMail({ name: 'Ada' }))
    return { registered: true }
  })
  server = await listenOn(serveNode, router)
  // A worker in the server's process, as fw serve runs one.
  worker = new Worker(new DatabaseQueue(), await loadJobs(join(folder, 'Jobs')), { logger: { error: () => undefined }, pollMs: 20 })
  working = worker.run()
})
afterAll(async () => {
  worker.stop()
  await working
  await server.close()
  await smtp.close()
  for (const key of ENV) delete process.env[key]
  queue.restore()
  Container.setInstance(undefined)
  await database.destroy()
  rmSync(folder, { recursive: true, force: true })
})

describe('mail sent in a request, under the database queue', () => {
  it('answers the same, without waiting for the mail server, whether it is up, never greets, or refuses connections', async () => {
    const up = await register()
    expect(up).toEqual({ status: 200, body: '{"registered":true}', beforeTimeout: true })
    await until(() => smtp.received.length === 1, 'the mail to arrive')
    expect(await rows()).toEqual([])

    const silent = await startSilentServer()
    try {
      process.env.MAIL_URL = silent.url
      expect(await register()).toEqual(up)
      // Meanwhile the worker waits for the greeting, gives up at MAIL_TIMEOUT, and the job waits for its next attempt.
      await until(async () => (await rows())[0]?.attempts === 1 && (await rows())[0]?.state === 'ready', 'the job to be retried')
      expect(JSON.parse((await rows())[0]!.last_error).message).toMatch(/\(ETIMEDOUT\)$/)
    } finally {
      await silent.close()
    }
    await sql`delete from fw_jobs`.execute(database)

    process.env.MAIL_URL = `smtp://127.0.0.1:${await freePort()}`
    expect(await register()).toEqual(up)
    await until(async () => (await rows())[0]?.attempts === 1 && (await rows())[0]?.state === 'ready', 'the job to be retried')
    expect(JSON.parse((await rows())[0]!.last_error).message).toMatch(/ECONNREFUSED/)
  })
})
