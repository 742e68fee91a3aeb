import { setTimeout as sleep } from 'node:timers/promises'
import { sql, type Kysely } from 'kysely'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { Container } from '../../src/container/Container.js'
import { createDatabase } from '../../src/database/createDatabase.js'
import { transaction } from '../../src/database/db.js'
import type { Logger } from '../../src/log/Logger.js'
import { PgBossQueue } from '../../src/queue/PgBossQueue.js'
import { Worker } from '../../src/queue/Worker.js'
import { Job, queue } from '../../src/queue.js'
import { startPostgres, type TestPostgres } from '../support/postgres.js'

/** What the jobs of this file did, in order. */
const done: string[] = []

class Greet extends Job<{ name: string }> {
  handle({ name }: { name: string }): void {
    done.push(`Hello, ${name}`)
  }
}

class Slow extends Job<{ ms: number }> {
  async handle({ ms }: { ms: number }): Promise<void> {
    await sleep(ms)
    done.push(`slow ${ms}`)
  }
}

class Poison extends Job {
  static override options = { attempts: 2, backoff: 0 }

  handle(): void {
    done.push('poison')
    throw new TypeError('cannot read the upload')
  }
}

let postgres: TestPostgres
let database: Kysely<any>
/** The queue of this process, as `QUEUE_DRIVER=database` gives it on PostgreSQL, supervising as a worker's does. */
let jobs: PgBossQueue

const rows = async () =>
  (await sql<Record<string, any>>`select name as queue, data, state::text as state, retry_count, retry_limit, singleton_key, start_after from pgboss.job order by created_on, id`.execute(database)).rows

/** The next job due, as a polling worker gets it: a job made due just now is due for pg-boss a moment later. */
async function claimSoon() {
  for (let tries = 0; tries < 50; tries++) {
    const claimed = await jobs.claim(['default'])
    if (claimed) return claimed
    await sleep(50)
  }
  throw new Error('No job came due within 2.5 s')
}

function keptLog(): Logger & { lines: string[] } {
  const lines: string[] = []
  return { lines, info: (message) => lines.push(message), error: (message, ...details) => lines.push(`${message} ${details.map(String).join(' ')}`) }
}

beforeAll(async () => {
  postgres = await startPostgres()
  process.env.DATABASE_URL = postgres.url
  process.env.QUEUE_DRIVER = 'database'
  database = createDatabase(postgres.url)
  Container.setInstance(new Container().instance('db', database))
  jobs = queue.stored({ worker: true }) as PgBossQueue
})
afterAll(async () => {
  await jobs?.close()
  queue.restore()
  Container.setInstance(undefined)
  delete process.env.DATABASE_URL
  delete process.env.QUEUE_DRIVER
  await database?.destroy()
  postgres?.stop()
})
afterEach(async () => {
  done.length = 0
  await sql`delete from pgboss.job`.execute(database)
})

describe('the database queue on PostgreSQL (pg-boss)', () => {
  it('is pg-boss when DATABASE_URL is PostgreSQL: a dispatch is stored for a worker, which claims, then completes it', async () => {
    expect(queue.driverName()).toBe('pgboss')
    await Greet.dispatch({ name: 'Ada' })
    expect(done).toEqual([])
    const [row] = await rows()
    expect(row).toMatchObject({ queue: 'default', data: { name: 'Greet', payload: { name: 'Ada' } }, state: 'created', retry_count: 0, retry_limit: 2 })
    const claimed = await jobs.claim(['default'])
    expect(claimed).toMatchObject({ name: 'Greet', payload: { name: 'Ada' }, attempt: 1, attempts: 3, lease: '0' })
    expect(await jobs.claim(['default'])).toBeUndefined()
    expect(await jobs.counts()).toEqual({ waiting: 0, active: 1, failed: 0 })
    expect(await jobs.complete(claimed!)).toBe(true)
    expect(await jobs.complete(claimed!)).toBe(false)
    expect(await jobs.counts()).toEqual({ waiting: 0, active: 0, failed: 0 })
  })

  it('claims from the first queue named that has a job due, and not a delayed job before its time', async () => {
    await Greet.dispatch({ name: 'later' }, { queue: 'high', delay: 60 })
    await Greet.dispatch({ name: 'low' }, { queue: 'low' })
    await Greet.dispatch({ name: 'high' }, { queue: 'high' })
    expect((await jobs.claim(['high', 'low']))?.payload).toEqual({ name: 'high' })
    expect((await jobs.claim(['high', 'low']))?.payload).toEqual({ name: 'low' })
    expect(await jobs.claim(['high', 'low'])).toBeUndefined()
    expect(await jobs.counts()).toEqual({ waiting: 1, active: 2, failed: 0 })
  })

  it('stores a job dispatched in transaction() only when it commits', async () => {
    await expect(
      transaction(async () => {
        await Greet.dispatch({ name: 'rolled back' })
        throw new Error('changed my mind')
      }),
    ).rejects.toThrow('changed my mind')
    expect(await rows()).toEqual([])
    await transaction(async () => {
      await Greet.dispatch({ name: 'committed' })
    })
    expect((await rows()).map((row) => row.data.payload)).toEqual([{ name: 'committed' }])
  })

  it('keeps one waiting job per unique key, and takes a new one once it runs', async () => {
    await Greet.dispatch({ name: 'first' }, { uniqueKey: 'user:1' })
    await Greet.dispatch({ name: 'dropped' }, { uniqueKey: 'user:1' })
    await Greet.dispatch({ name: 'other key' }, { uniqueKey: 'user:2' })
    expect((await rows()).map((row) => row.data.payload.name)).toEqual(['first', 'other key'])
    expect(await jobs.unfinished('Greet', 'user:1')).toBe(true)
    const claimed = await jobs.claim(['default'])
    await Greet.dispatch({ name: 'after the claim' }, { uniqueKey: 'user:1' })
    expect(await jobs.fail(claimed!, new Error('again'))).toBe('retry')
    expect((await rows()).map((row) => [row.data.payload.name, row.state])).toEqual([
      ['first', 'retry'],
      ['other key', 'created'],
      ['after the claim', 'created'],
    ])
    expect(await jobs.unfinished('Greet', 'user:3')).toBe(false)
  })

  it('runs a failed job again after its backoff, then fails it with its error; retry gives it its attempts afresh; flush', async () => {
    await Greet.dispatch({ name: 'x' }, { attempts: 2, backoff: 5 })
    const first = await jobs.claim(['default'])
    expect(await jobs.fail(first!, new Error('mail server down'))).toBe('retry')
    const [waiting] = await rows()
    // pg-boss's backoff: the delay, doubled per retry, with jitter (5 to 10 s for the first).
    const delay = (new Date(waiting!.start_after).getTime() - Date.now()) / 1000
    expect(delay).toBeGreaterThan(3)
    expect(delay).toBeLessThanOrEqual(10)
    await sql`update pgboss.job set start_after = now()`.execute(database)
    const second = await claimSoon()
    expect(second).toMatchObject({ attempt: 2, attempts: 2, lease: '1' })
    expect(await jobs.fail(second!, new RangeError('mail server gone'))).toBe('failed')
    expect(await jobs.claim(['default'])).toBeUndefined()

    const [failed] = await jobs.failed()
    expect(failed).toMatchObject({ name: 'Greet', queue: 'default', payload: { name: 'x' }, attempts: 2, error: { name: 'RangeError', message: 'mail server gone' } })
    expect(failed!.error.stack).toMatch(/^RangeError: mail server gone\n\s+at /)
    expect(await jobs.counts()).toEqual({ waiting: 0, active: 0, failed: 1 })

    expect(await jobs.retry([failed!.id])).toBe(1)
    expect(await jobs.retry('all')).toBe(0)
    // Its attempts start afresh: 1 of 2, then 2 of 2, not 3 of 4.
    for (const [attempt, expected] of [[1, 'retry'], [2, 'failed']] as const) {
      await sql`update pgboss.job set start_after = now()`.execute(database)
      const again = await claimSoon()
      expect(again).toMatchObject({ attempt, attempts: 2 })
      expect(await jobs.fail(again!, new Error('still down'))).toBe(expected)
    }
    expect((await jobs.failed())[0]).toMatchObject({ attempts: 2 })
    expect(await jobs.flush()).toBe(1)
    expect(await rows()).toEqual([])
  })

  it('leaves a failed unique job failed when retried while its twin waits', async () => {
    await Greet.dispatch({ name: 'failed' }, { uniqueKey: 'report', attempts: 1 })
    expect(await jobs.fail((await jobs.claim(['default']))!, new Error('no'))).toBe('failed')
    await Greet.dispatch({ name: 'twin' }, { uniqueKey: 'report' })
    const [failed] = await jobs.failed()
    expect(await jobs.retry([failed!.id])).toBe(0)
    expect((await rows()).map((row) => [row.data.payload.name, row.state])).toEqual([
      ['failed', 'failed'],
      ['twin', 'created'],
    ])
    await jobs.complete((await jobs.claim(['default']))!)
    expect(await jobs.retry([failed!.id])).toBe(1)
  })

  it('fails a job at once when told not to retry it', async () => {
    await Greet.dispatch({ name: 'x' }, { attempts: 3 })
    const claimed = await jobs.claim(['default'])
    expect(await jobs.fail(claimed!, new Error('no class'), { retry: false })).toBe('failed')
    expect((await jobs.failed()).map((job) => job.error.message)).toEqual(['no class'])
  })

  it('gives a job whose heartbeat stopped to the next claim, and fences off every later write of the first', async () => {
    await Greet.dispatch({ name: 'x' }, { attempts: 2, backoff: 0 })
    const first = await jobs.claim(['default'])
    // As if its worker had been killed 15 s ago: pg-boss's supervision (every 5 s here) gives it back.
    await sql`update pgboss.job set heartbeat_on = now() - interval '15 seconds'`.execute(database)
    let second
    for (let tries = 0; tries < 150 && !second; tries++) {
      await sleep(100)
      second = await jobs.claim(['default'])
    }
    expect(second).toMatchObject({ attempt: 2, lease: '1' })
    expect(await jobs.heartbeat(first!)).toBe(false)
    expect(await jobs.complete(first!)).toBe(false)
    expect(await jobs.fail(first!, new Error('late'))).toBe('lost')
    expect(await jobs.heartbeat(second!)).toBe(true)
    expect(await jobs.complete(second!)).toBe(true)
  }, 30_000)

  it('is run by a worker: a poison job is failed after its attempts', async () => {
    await Greet.dispatch({ name: 'Ada' })
    await Poison.dispatch()
    const logger = keptLog()
    const worker = new Worker(jobs, new Map<string, any>([['Greet', Greet], ['Poison', Poison]]), { logger, pollMs: 20 })
    const running = worker.run()
    for (let i = 0; i < 200 && (await jobs.counts()).failed < 1; i++) await sleep(25)
    worker.stop()
    await running
    expect(done).toEqual(['Hello, Ada', 'poison', 'poison'])
    expect((await jobs.failed()).map((job) => [job.name, job.attempts, job.error.message])).toEqual([['Poison', 2, 'cannot read the upload']])
  })

  it('wakes an idle worker as soon as a job is committed (LISTEN/NOTIFY), not at its next poll', async () => {
    const worker = new Worker(jobs, new Map<string, any>([['Greet', Greet]]), { logger: keptLog(), pollMs: 60_000 })
    const running = worker.run()
    // The worker's first wait opens the listening connection.
    await sleep(500)
    const dispatched = Date.now()
    await Greet.dispatch({ name: 'at once' })
    for (let i = 0; i < 100 && done.length === 0; i++) await sleep(20)
    worker.stop()
    await running
    expect(done).toEqual(['Hello, at once'])
    expect(Date.now() - dispatched).toBeLessThan(2_000)
  })
})

describe('a pg-boss worker process', () => {
  it('sizes its pool from the concurrency: more than pg-boss\'s 3 connections for 6 jobs at once', async () => {
    const own = new PgBossQueue({ supervise: true })
    for (let n = 0; n < 6; n++) await Slow.dispatch({ ms: 1500 }, { queue: 'slow' })
    const since = (await sql<{ now: Date }>`select now() as now`.execute(database)).rows[0]!.now
    const worker = new Worker(own, new Map<string, any>([['Slow', Slow]]), { logger: keptLog(), concurrency: 6, queues: ['slow'], pollMs: 20 })
    const running = worker.run()
    try {
      for (let i = 0; i < 100 && (await own.counts()).active < 6; i++) await sleep(20)
      expect((await own.counts()).active).toBe(6)
      // The connections this queue opened (the shared one of this file opened its own before): a job at once has one.
      const { rows } = await sql<{ count: number }>`select count(*)::int as count from pg_stat_activity
        where application_name = 'fw-queue' and backend_start >= ${since}`.execute(database)
      expect(rows[0]!.count).toBeGreaterThan(3)
      expect(rows[0]!.count).toBeLessThanOrEqual(3 + 6)
    } finally {
      worker.stop()
      await running
      await own.close()
    }
    expect(done).toEqual(Array.from({ length: 6 }, () => 'slow 1500'))
  }, 20_000)
})
