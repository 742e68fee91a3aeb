import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { sql, type Kysely } from 'kysely'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { Container, type Cradle } from '../../src/container/Container.js'
import { createDatabase } from '../../src/database/createDatabase.js'
import { isMissingTable } from '../../src/database/createTables.js'
import { transaction } from '../../src/database/db.js'
import type { Logger } from '../../src/log/Logger.js'
import { COMMIT_CHECK_MS, DatabaseQueue } from '../../src/queue/DatabaseQueue.js'
import { loadJobs } from '../../src/queue/jobRegistry.js'
import { JOBS_TABLE } from '../../src/queue/jobsTable.js'
import { pendingJob } from '../../src/queue/pendingJob.js'
import { Worker } from '../../src/queue/Worker.js'
import { Job, queue, UnrecoverableJobError } from '../../src/queue.js'
import { createFwApp, startFw, until } from '../support/fwApp.js'
import { startPostgres, type TestPostgres } from '../support/postgres.js'

/** What the jobs of this file did, in order. */
const done: string[] = []

class Greet extends Job<{ name: string }> {
  constructor(private readonly services: Cradle) {
    super()
  }

  async handle({ name }: { name: string }): Promise<void> {
    done.push(`${this.services.greeting as string}, ${name}`)
  }
}

class Poison extends Job {
  static override options = { attempts: 2, backoff: 0 }

  handle(): void {
    done.push('poison')
    throw new TypeError('cannot read the upload')
  }
}

class Refused extends Job {
  static override options = { attempts: 5, backoff: 0 }

  handle(): void {
    done.push('refused')
    throw new UnrecoverableJobError('the address does not exist')
  }
}

class Slow extends Job<{ ms: number }> {
  async handle({ ms }: { ms: number }): Promise<void> {
    await sleep(ms)
    done.push(`slow ${ms}`)
  }
}

let folder: string
let database: Kysely<any>

/** The row of a job, as the table holds it. */
const rows = async () => (await sql<Record<string, any>>`select * from fw_jobs order by id`.execute(database)).rows

/** A logger that keeps what it is told. */
function keptLog(): Logger & { lines: string[] } {
  const lines: string[] = []
  return { lines, info: (message) => lines.push(message), error: (message) => lines.push(message) }
}

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'fw-jobs-'))
  database = createDatabase(`sqlite:${join(folder, 'database.sqlite')}`)
  Container.setInstance(new Container().instance('db', database).instance('greeting', 'Hello'))
})
afterAll(async () => {
  Container.setInstance(undefined)
  await database.destroy()
  rmSync(folder, { recursive: true, force: true })
})
beforeEach(() => {
  process.env.QUEUE_DRIVER = 'database'
})
afterEach(async () => {
  done.length = 0
  queue.restore()
  delete process.env.QUEUE_DRIVER
  // A test of another app's database leaves this one's table unmade.
  await sql`delete from fw_jobs`.execute(database).catch((error: unknown) => {
    if (!isMissingTable(error, JOBS_TABLE)) throw error
  })
})

describe('the database queue (SQLite)', () => {
  it('stores a dispatched job in fw_jobs, made on first use, for a worker to claim', async () => {
    expect(queue.driverName()).toBe('database')
    await Greet.dispatch({ name: 'Ada' })
    expect(done).toEqual([])
    const [row] = await rows()
    expect(row).toMatchObject({ queue: 'default', name: 'Greet', payload: '{"name":"Ada"}', state: 'ready', attempts: 0, max_attempts: 3, backoff: 10 })

    const jobs = new DatabaseQueue()
    const claimed = await jobs.claim(['default'], 'worker-1')
    expect(claimed).toMatchObject({ id: String(row!.id), name: 'Greet', payload: { name: 'Ada' }, attempt: 1, attempts: 3 })
    expect(await jobs.claim(['default'], 'worker-2')).toBeUndefined()
    expect((await rows())[0]).toMatchObject({ state: 'active', attempts: 1, worker: 'worker-1', lease_token: claimed!.lease })
    expect(await jobs.counts()).toEqual({ waiting: 0, active: 1, failed: 0 })
    expect(await jobs.complete(claimed!)).toBe(true)
    expect(await rows()).toEqual([])
  })

  it('claims from the first queue named that has a job due, and not a delayed job before its time', async () => {
    await Greet.dispatch({ name: 'later' }, { queue: 'high', delay: 60 })
    await Greet.dispatch({ name: 'low' }, { queue: 'low' })
    await Greet.dispatch({ name: 'high' }, { queue: 'high' })
    const jobs = new DatabaseQueue()
    expect((await jobs.claim(['high', 'low'], 'w'))?.payload).toEqual({ name: 'high' })
    expect((await jobs.claim(['high', 'low'], 'w'))?.payload).toEqual({ name: 'low' })
    expect(await jobs.claim(['high', 'low'], 'w')).toBeUndefined()
    const [later] = await rows()
    expect(later!.available_at - Date.now()).toBeGreaterThan(55_000)
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
    expect((await rows()).map((row) => row.payload)).toEqual(['{"name":"committed"}'])
  })

  it('keeps one waiting job per unique key, and takes a new one once it runs', async () => {
    await Greet.dispatch({ name: 'first' }, { uniqueKey: 'user:1' })
    await Greet.dispatch({ name: 'dropped' }, { uniqueKey: 'user:1' })
    await Greet.dispatch({ name: 'other key' }, { uniqueKey: 'user:2' })
    expect((await rows()).map((row) => row.payload)).toEqual(['{"name":"first"}', '{"name":"other key"}'])
    const claimed = await new DatabaseQueue().claim(['default'], 'w')
    await Greet.dispatch({ name: 'after the claim' }, { uniqueKey: 'user:1' })
    // The claimed one failing back into the queue does not collide with its waiting twin.
    expect(await new DatabaseQueue().fail(claimed!, new Error('again'))).toBe('retry')
    expect((await rows()).map((row) => [row.payload, row.state])).toEqual([
      ['{"name":"first"}', 'ready'],
      ['{"name":"other key"}', 'ready'],
      ['{"name":"after the claim"}', 'ready'],
    ])
  })

  it('runs a failed job again after its backoff, doubled each time, then fails it with its error; retry and flush', async () => {
    await Greet.dispatch({ name: 'x' }, { attempts: 3, backoff: 5 })
    const jobs = new DatabaseQueue()
    const due = async () => {
      // The backoff, seen in the row, then the row made due so that the test need not wait for it.
      const [row] = await rows()
      await sql`update fw_jobs set available_at = 0`.execute(database)
      return Math.round((row!.available_at - Date.now()) / 1000)
    }
    const first = await jobs.claim(['default'], 'w')
    expect(await jobs.fail(first!, new Error('mail server down'))).toBe('retry')
    expect(await due()).toBe(5)
    const second = await jobs.claim(['default'], 'w')
    expect(second!.attempt).toBe(2)
    expect(await jobs.fail(second!, new Error('mail server down'))).toBe('retry')
    expect(await due()).toBe(10)
    const third = await jobs.claim(['default'], 'w')
    expect(await jobs.fail(third!, new RangeError('mail server gone'))).toBe('failed')
    expect(await jobs.claim(['default'], 'w')).toBeUndefined()

    const [failed] = await jobs.failed()
    expect(failed).toMatchObject({ name: 'Greet', queue: 'default', payload: { name: 'x' }, attempts: 3, error: { name: 'RangeError', message: 'mail server gone' } })
    expect(failed!.error.stack).toMatch(/^RangeError: mail server gone\n\s+at /)
    expect(Date.now() - failed!.failedAt.getTime()).toBeLessThan(5_000)

    expect(await jobs.retry([failed!.id])).toBe(1)
    expect(await jobs.retry('all')).toBe(0)
    const again = await jobs.claim(['default'], 'w')
    expect(again).toMatchObject({ attempt: 1, attempts: 3 })
    expect(await jobs.fail(again!, new Error('no'), { retry: false })).toBe('failed')
    expect(await jobs.counts()).toEqual({ waiting: 0, active: 0, failed: 1 })
    expect(await jobs.flush()).toBe(1)
    expect(await rows()).toEqual([])
  })

  it('gives an expired lease to the next worker, and fences off every later write of the first', async () => {
    await Greet.dispatch({ name: 'x' }, { attempts: 2 })
    const jobs = new DatabaseQueue(undefined, 50)
    const first = await jobs.claim(['default'], 'killed')
    await sleep(80)
    const second = await jobs.claim(['default'], 'alive')
    expect(second).toMatchObject({ attempt: 2 })
    expect(second!.lease).not.toBe(first!.lease)
    expect(await jobs.heartbeat(first!)).toBe(false)
    expect(await jobs.complete(first!)).toBe(false)
    expect(await jobs.fail(first!, new Error('late'))).toBe('lost')
    expect((await rows())[0]).toMatchObject({ state: 'active', worker: 'alive' })

    // Its last attempt's lease expiring fails it, saying why.
    await sleep(80)
    expect(await jobs.claim(['default'], 'third')).toBeUndefined()
    const [failed] = await jobs.failed()
    expect(failed!.error).toMatchObject({ name: 'LeaseExpired', message: 'The worker running this job stopped renewing its lease (it was killed or stalled)' })
    expect(await jobs.complete(second!)).toBe(false)
  })

  it('tells whether a job of a class and key waits or runs, not once it has failed', async () => {
    const jobs = new DatabaseQueue()
    expect(await jobs.unfinished('Greet', 'daily')).toBe(false)
    await Greet.dispatch({ name: 'x' }, { uniqueKey: 'daily', attempts: 1 })
    expect(await jobs.unfinished('Greet', 'daily')).toBe(true)
    expect(await jobs.unfinished('Greet', 'weekly')).toBe(false)
    expect(await jobs.unfinished('Poison', 'daily')).toBe(false)
    const claimed = await jobs.claim(['default'], 'w')
    expect(await jobs.unfinished('Greet', 'daily')).toBe(true)
    expect(await jobs.fail(claimed!, new Error('no'))).toBe('failed')
    expect(await jobs.unfinished('Greet', 'daily')).toBe(false)
  })
})

describe('a worker', () => {
  const registry = new Map<string, any>([
    ['Greet', Greet],
    ['Poison', Poison],
    ['Refused', Refused],
    ['Slow', Slow],
  ])

  it('runs the jobs due with the container\'s services, retries a throwing one, then fails it, and stops with --once when none is left', async () => {
    await Greet.dispatch({ name: 'Ada' })
    await Poison.dispatch()
    await storeUnknownJobs(['Gone'])
    const logger = keptLog()
    const worker = new Worker(new DatabaseQueue(), registry, { logger, pollMs: 10, maxTime: 5 })
    const running = worker.run()
    for (let i = 0; i < 100 && (await new DatabaseQueue().counts()).failed < 2; i++) await sleep(20)
    worker.stop()
    expect(await running).toBe('stopped')
    expect(done).toEqual(['Hello, Ada', 'poison', 'poison'])
    const failed = await new DatabaseQueue().failed()
    expect(failed.map((job) => [job.name, job.attempts, job.error.message])).toEqual([
      ['Gone', 1, "No job class Gone among the app's jobs (App/Jobs): was it renamed or deleted?"],
      ['Poison', 2, 'cannot read the upload'],
    ])
    expect(logger.lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Greet #\d+ done$/),
        expect.stringMatching(/^\[fw\] Poison #\d+ threw: it will run again$/),
        expect.stringMatching(/^\[fw\] Poison #\d+ threw: it failed \(fw queue:failed lists it\)$/),
        expect.stringMatching(/^\[fw\] Gone #\d+ failed: no job class of that name in App\/Jobs$/),
      ]),
    )
    expect(await new Worker(new DatabaseQueue(), registry, { logger, once: true }).run()).toBe('once')
  })

  it('fails a job that throws an UnrecoverableJobError at once, whatever attempts it has left', async () => {
    await Refused.dispatch()
    const logger = keptLog()
    expect(await new Worker(new DatabaseQueue(), registry, { logger, once: true }).run()).toBe('once')
    expect(done).toEqual(['refused'])
    const [failed] = await new DatabaseQueue().failed()
    expect([failed!.name, failed!.attempts, failed!.error.name, failed!.error.message]).toEqual(['Refused', 1, 'UnrecoverableJobError', 'the address does not exist'])
    expect(logger.lines).toEqual([expect.stringMatching(/^\[fw\] Refused #\d+ threw: it failed \(fw queue:failed lists it\)$/)])
  })

  it('runs jobs side by side up to its concurrency, stops after --max-jobs, and lets the jobs in flight finish when stopped', async () => {
    for (const ms of [300, 300, 300]) await Slow.dispatch({ ms })
    const started = Date.now()
    const worker = new Worker(new DatabaseQueue(), registry, { logger: keptLog(), concurrency: 3, maxJobs: 2, pollMs: 10 })
    expect(await worker.run()).toBe('max-jobs')
    expect(done).toEqual(['slow 300', 'slow 300'])
    expect(Date.now() - started).toBeLessThan(550)
    expect((await rows()).map((row) => row.state)).toEqual(['ready'])

    const stopped = new Worker(new DatabaseQueue(), registry, { logger: keptLog(), pollMs: 10 })
    const running = stopped.run()
    await sleep(100)
    stopped.stop()
    expect(await running).toBe('stopped')
    expect(done).toEqual(['slow 300', 'slow 300', 'slow 300'])
    expect(await rows()).toEqual([])
  })
})

describe('an idle worker of the process that dispatches', () => {
  it('takes a job as soon as it is committed, not at its next poll', async () => {
    const worker = new Worker(new DatabaseQueue(), new Map<string, any>([['Greet', Greet]]), { logger: keptLog(), pollMs: 60_000 })
    const running = worker.run()
    await sleep(50)
    await transaction(async () => {
      await Greet.dispatch({ name: 'at once' })
      await sleep(100)
      expect(done).toEqual([])
    })
    for (let i = 0; i < 50 && done.length === 0; i++) await sleep(20)
    worker.stop()
    await running
    expect(done).toEqual(['Hello, at once'])
  })
})

describe('an idle worker of another process (fw queue:work)', () => {
  it('starts a job dispatched here well before its next poll: it sees the commit through SQLite\'s data_version', async () => {
    const app = createFwApp()
    // The job notes when it started; the test, when its dispatch committed.
    app.write('App/Jobs/Stamp.ts', `import { appendFileSync } from 'node:fs'
import { Job } from 'fw-runtime/queue'

export class Stamp extends Job<{ n: number }> {
  handle({ n }: { n: number }): void {
    appendFileSync('starts.log', \`\${n} \${Date.now()}\\n\`)
  }
}
`)
    app.write('.env', 'QUEUE_DRIVER=database\n')
    const appDatabase = createDatabase(`sqlite:${join(app.dir, 'database/database.sqlite')}`)
    const jobs = new DatabaseQueue(() => appDatabase)
    const Stamp = Object.defineProperty(class {}, 'name', { value: 'Stamp' }) as never
    const started = (n: number) => {
      const line = app.files('.').includes('starts.log') ? app.read('starts.log').split('\n').find((entry) => entry.startsWith(`${n} `)) : undefined
      return line === undefined ? undefined : Number(line.split(' ')[1])
    }
    const worker = startFw(app.dir, ['queue:work'])
    try {
      await jobs.push(pendingJob(Stamp, { n: 0 }))
      await until(() => started(0) !== undefined, `the worker to start and run a first job:\n${worker.output()}`)
      const delays: number[] = []
      for (let n = 1; n <= 5; n++) {
        // Each dispatch lands at another moment of the worker's one-second poll, which began when it ran the last job.
        await sleep(100 + 60 * n)
        await jobs.push(pendingJob(Stamp, { n }))
        const committed = Date.now()
        await until(() => started(n) !== undefined, `job ${n} to start`, 5_000)
        delays.push(started(n)! - committed)
      }
      // Polling alone (once a second) starts them about 0.5 to 0.9 s after; the commit check, within COMMIT_CHECK_MS
      // and a claim, with room for a loaded machine.
      expect(delays.every((ms) => ms < 250), `start delays ${delays.join(', ')} ms (checked every ${COMMIT_CHECK_MS} ms)`).toBe(true)
    } finally {
      worker.child.kill('SIGKILL')
      await worker.exited
      await appDatabase.destroy()
      app.remove()
    }
  }, 60_000)
})

describe('the jobs table dropped under a running app (fw migrate:fresh in another process)', () => {
  it('is made again: the worker goes on without a line per poll, and a dispatch is stored and run', async () => {
    const registry = new Map<string, any>([['Greet', Greet]])
    await Greet.dispatch({ name: 'before' })
    const logger = keptLog()
    const worker = new Worker(new DatabaseQueue(), registry, { logger, pollMs: 20 })
    const running = worker.run()
    for (let i = 0; i < 50 && done.length === 0; i++) await sleep(20)
    // Another process's connection drops the table, as `fw migrate:fresh` does beside `fw serve`.
    const other = createDatabase(`sqlite:${join(folder, 'database.sqlite')}`)
    await sql`drop table fw_jobs`.execute(other)
    await other.destroy()
    await sleep(300)
    await Greet.dispatch({ name: 'after' })
    for (let i = 0; i < 50 && done.length < 2; i++) await sleep(20)
    worker.stop()
    await running
    expect(done).toEqual(['Hello, before', 'Hello, after'])
    expect(logger.lines.filter((line) => !/ done$/.test(line)).length).toBeLessThanOrEqual(1)
  })
})

describe('Job.dispatch() inside a raw db().transaction().execute() on SQLite', () => {
  it('settles at once: the job joins the transaction that holds the one connection, stored when it commits, gone when it rolls back', async () => {
    await database.transaction().execute(async () => {
      await Greet.dispatch({ name: 'committed' })
    })
    await expect(
      database.transaction().execute(async () => {
        await Greet.dispatch({ name: 'rolled back' })
        throw new Error('changed my mind')
      }),
    ).rejects.toThrow('changed my mind')
    expect((await rows()).map((row) => row.payload)).toEqual(['{"name":"committed"}'])
  }, 2_000)
})

describe('loadJobs', () => {
  it('finds the job classes a folder exports, by name, and refuses two of one name', async () => {
    const jobs = join(folder, 'Jobs')
    const job = (name: string) => `import { Job } from ${JSON.stringify(new URL('../../src/queue.ts', import.meta.url).href)}\nexport class ${name} extends Job { handle() {} }\n`
    mkdirSync(join(jobs, 'Mail'), { recursive: true })
    writeFileSync(join(jobs, 'PruneTokens.ts'), `${job('PruneTokens')}export const helper = () => 1\n`)
    writeFileSync(join(jobs, 'Mail/SendWelcome.ts'), job('SendWelcome'))
    writeFileSync(join(jobs, 'Mail/SendWelcome.test.ts'), 'throw new Error("a test is not a job")\n')
    expect([...(await loadJobs(jobs)).keys()].sort()).toEqual(['PruneTokens', 'SendQueuedMail', 'SendWelcome'])
    // Fw's own jobs are always there, so that every worker sends the mail the app queues.
    expect([...(await loadJobs(join(folder, 'none'))).keys()]).toEqual(['SendQueuedMail'])
    writeFileSync(join(jobs, 'SendQueuedMail.ts'), job('SendQueuedMail'))
    await expect(loadJobs(jobs)).rejects.toThrow("SendQueuedMail (SendQueuedMail.ts) has the name of one of Fw's own jobs: a stored job names its class, so rename it")
    rmSync(join(jobs, 'SendQueuedMail.ts'))
    writeFileSync(join(jobs, 'Mail/PruneTokens.ts'), job('PruneTokens'))
    await expect(loadJobs(jobs)).rejects.toThrow(
      'Two job classes are named PruneTokens (Mail/PruneTokens.ts and PruneTokens.ts): a stored job names its class, so rename one',
    )
  })
})

/** Jobs stored under class names this process does not know, as a renamed class leaves them. */
async function storeUnknownJobs(names: string[]): Promise<void> {
  for (const name of names) {
    await sql`insert into fw_jobs (queue, name, payload, state, max_attempts, backoff, available_at, created_at)
      values ('default', ${name}, 'null', 'ready', 3, 0, 0, 0)`.execute(database)
  }
}

describe('the database queue on PostgreSQL', () => {
  let postgres: TestPostgres
  let pg: Kysely<any>
  beforeAll(async () => {
    postgres = await startPostgres()
    pg = createDatabase(postgres.url)
  })
  afterAll(async () => {
    await pg?.destroy()
    postgres?.stop()
  })

  it('is for SQLite only', async () => {
    await expect(new DatabaseQueue(() => pg).counts()).rejects.toThrow(
      'The fw_jobs table is for SQLite: on PostgreSQL, QUEUE_DRIVER=database keeps the jobs in pg-boss',
    )
  })
})
