import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { sql, type Kysely } from 'kysely'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { Container } from '../../src/container/Container.js'
import { createDatabase } from '../../src/database/createDatabase.js'
import { db } from '../../src/database/db.js'
import { Dashboard } from '../../src/dash/Dashboard.js'
import type { ClaimedJob } from '../../src/queue/types.js'
import { Job, queue } from '../../src/queue.js'
import { startPostgres } from '../support/postgres.js'

class Resize extends Job<{ upload: number }> {
  handle(): void {}
}

/** The application's database for `QUEUE_DRIVER=database`, with the table its driver keeps the jobs in. */
interface Backend {
  name: string
  open(): Promise<{ database: Kysely<any>; env: Record<string, string>; jobsTable: string; close(): void }>
}

const backends: Backend[] = [
  {
    name: 'SQLite',
    async open() {
      const folder = mkdtempSync(join(tmpdir(), 'fw-dash-queue-'))
      const database = createDatabase(`sqlite:${join(folder, 'database.sqlite')}`)
      return { database, env: {}, jobsTable: 'fw_jobs', close: () => rmSync(folder, { recursive: true, force: true }) }
    },
  },
  {
    name: 'PostgreSQL',
    async open() {
      const postgres = await startPostgres()
      return { database: createDatabase(postgres.url), env: { DATABASE_URL: postgres.url }, jobsTable: 'pgboss.job', close: () => postgres.stop() }
    },
  },
]

/** The next job due, as a polling worker gets it (pg-boss sees a job made just now due a moment later). */
async function claimSoon(queueName: string): Promise<ClaimedJob> {
  for (let tries = 0; tries < 50; tries++) {
    const claimed = await queue.stored().claim([queueName], 'test-worker')
    if (claimed) return claimed
    await sleep(50)
  }
  throw new Error('No job came due within 2.5 s')
}

/** Dispatches a job that may run once, claims it as a worker does and fails it with `error`; its id. */
async function failJob(error: Error, queueName = 'default'): Promise<string> {
  await Resize.dispatch({ upload: 1 }, { attempts: 1, queue: queueName })
  const claimed = await claimSoon(queueName)
  expect(await queue.stored().fail(claimed, error)).toBe('failed')
  return claimed.id
}

describe('a dashboard under QUEUE_DRIVER=sync', () => {
  it('has no queue to show and no job to retry', async () => {
    process.env.QUEUE_DRIVER = 'sync'
    queue.restore()
    try {
      const dashboard = new Dashboard({ db })

      expect(queue.driverName()).toBe('sync')
      expect(await dashboard.queue()).toBeUndefined()
      expect(await dashboard.retryJob('1')).toBe(false)
    } finally {
      delete process.env.QUEUE_DRIVER
      queue.restore()
    }
  })

  it('has none under a fake either', async () => {
    queue.fake()
    try {
      expect(await new Dashboard({ db }).queue()).toBeUndefined()
    } finally {
      queue.restore()
    }
  })
})

describe.each(backends)('a dashboard under QUEUE_DRIVER=database on $name', (backend) => {
  let database: Kysely<any>
  let jobsTable: string
  let close: () => void
  let env: Record<string, string>
  const dashboard = new Dashboard({ db })

  beforeAll(async () => {
    ;({ database, env, jobsTable, close } = await backend.open())
    Object.assign(process.env, env, { QUEUE_DRIVER: 'database' })
    Container.setInstance(new Container().instance('db', database))
    queue.restore()
  }, 60_000)
  afterAll(async () => {
    await queue.stored().close?.()
    queue.restore()
    Container.setInstance(undefined)
    for (const name of [...Object.keys(env ?? {}), 'QUEUE_DRIVER']) delete process.env[name]
    await database?.destroy()
    close?.()
  })
  afterEach(async () => {
    await sql`delete from ${sql.table(jobsTable)}`.execute(database)
  })

  it('shows the driver and no jobs before any is dispatched', async () => {
    expect(await dashboard.queue()).toEqual({
      driver: backend.name === 'SQLite' ? 'database' : 'pgboss',
      counts: { waiting: 0, running: 0, failed: 0 },
      failed: [],
    })
  })

  it('counts the jobs waiting, running and failed, and shows a failed one with the first line of its error', async () => {
    const failedId = await failJob(new TypeError('cannot read the upload\n  more detail on a second line'), 'media')
    await Resize.dispatch({ upload: 2 })
    await Resize.dispatch({ upload: 3 }, { delay: 60 })
    await Resize.dispatch({ upload: 4 }, { queue: 'media' })
    await claimSoon('media')

    const overview = await dashboard.queue()

    expect(overview?.counts).toEqual({ waiting: 2, running: 1, failed: 1 })
    expect(overview?.failed).toEqual([
      { id: failedId, queue: 'media', name: 'Resize', attempts: 1, failedAt: expect.any(Date), error: 'TypeError: cannot read the upload' },
    ])
    expect(Math.abs(overview!.failed[0]!.failedAt.getTime() - Date.now())).toBeLessThan(10_000)
  })

  it('lists the latest 20 failed jobs, newest first', async () => {
    for (let n = 1; n <= 21; n++) await failJob(new Error(`failure ${n}`))

    const overview = await dashboard.queue()

    expect(overview?.counts.failed).toBe(21)
    expect(overview?.failed.map((job) => job.error)).toEqual(Array.from({ length: 20 }, (_, i) => `Error: failure ${21 - i}`))
  })

  it('puts a failed job back on its queue once, and nothing for an id that is no failed job', async () => {
    const failedId = await failJob(new Error('the mail server said no'))
    await Resize.dispatch({ upload: 5 })
    const runningId = (await claimSoon('default')).id

    expect(await dashboard.retryJob('999999')).toBe(false)
    expect(await dashboard.retryJob('not an id')).toBe(false)
    // Not the id, though a number parser would read it as the same number.
    expect(await dashboard.retryJob(` ${failedId}`)).toBe(false)
    // A job that is running, not failed, is left alone.
    expect(await dashboard.retryJob(runningId)).toBe(false)
    expect((await dashboard.queue())?.counts).toEqual({ waiting: 0, running: 1, failed: 1 })

    expect(await dashboard.retryJob(failedId)).toBe(true)
    expect(await dashboard.queue()).toMatchObject({ counts: { waiting: 1, running: 1, failed: 0 }, failed: [] })
    expect(await dashboard.retryJob(failedId)).toBe(false)
    // Back on its queue with its attempts afresh: a worker can claim it again.
    expect((await claimSoon('default')).id).toBe(failedId)
  })

  it('says that a unique job whose twin already waits is not queued again, and leaves it failed', async () => {
    await Resize.dispatch({ upload: 6 }, { attempts: 1, uniqueKey: 'upload:6' })
    const claimed = await claimSoon('default')
    expect(await queue.stored().fail(claimed, new Error('the disk was full'))).toBe('failed')
    await Resize.dispatch({ upload: 6 }, { uniqueKey: 'upload:6' })

    expect(await dashboard.retryJobOutcome(claimed.id)).toBe('twin-waits')
    expect(await dashboard.retryJob(claimed.id)).toBe(false)
    expect((await dashboard.queue())?.counts).toEqual({ waiting: 1, running: 0, failed: 1 })
    expect(await dashboard.retryJobOutcome('999999')).toBe('not-failed')

    // Once the twin has run, it can be queued again.
    await queue.stored().complete(await claimSoon('default'))
    expect(await dashboard.retryJobOutcome(claimed.id)).toBe('queued')
  })
})
