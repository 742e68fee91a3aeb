import { randomUUID } from 'node:crypto'
import { sql, type Kysely } from 'kysely'
import { isMissingTable } from '../database/createTables.js'
import { afterCommit, db } from '../database/db.js'
import { dialectOf } from '../database/dialectOf.js'
import { sqliteDataVersion } from '../database/sqliteDataVersion.js'
import { jobError, storedError } from './jobError.js'
import { createJobsTable, JOBS_TABLE } from './jobsTable.js'
import { WakeUp } from './wakeUp.js'
import type { ClaimedJob, FailOutcome, FailedJob, PendingJob, QueueCounts, StoredQueue } from './types.js'

/** The idle workers of this process, whichever DatabaseQueue they wait on: a dispatch here wakes them. */
const workersHere = new WakeUp()

/** How long a claim lasts without a heartbeat: a worker killed mid-job gives its job back after this. */
export const LEASE_MS = 30_000

/**
 * How often idle workers ask SQLite whether another process committed (`PRAGMA data_version`): a job dispatched
 * there starts about half of this after its commit (p50 32 ms), rather than at the next poll. The look costs
 * microseconds; the timer's wake-up is what an idle worker pays: on a loaded 2-core VM an idle `fw queue:work` used
 * 0.3–0.4% of a core polling alone, 0.9–1.0% with a look every 50 ms and 1.5% every 25 ms.
 */
export const COMMIT_CHECK_MS = 50

interface ClaimedRow {
  id: number
  queue: string
  name: string
  payload: string
  attempts: number
  max_attempts: number
}

interface FailedRow {
  id: number
  queue: string
  name: string
  payload: string
  attempts: number
  failed_at: number
  last_error: string | null
}

/**
 * `QUEUE_DRIVER=database`: the jobs wait in a table of the application's SQLite database (`fw_jobs`, made on first
 * use), as Laravel's database queue, with leases that make a killed worker's job run again. A dispatch inserts
 * through `db()`, so inside `transaction()` the job exists once the transaction commits and never after a rollback.
 * A worker claims under `BEGIN IMMEDIATE` (one writer at a time: no job is claimed twice) and renews its lease while
 * the job runs; once the lease has expired, another worker may claim the job, and every write of the first is
 * fenced off by the lease's token. An idle worker hears of a dispatch in its own process at once, and of one in
 * another process within `COMMIT_CHECK_MS` (see `wait`).
 */
export class DatabaseQueue implements StoredQueue {
  readonly name = 'database'
  readonly heartbeatMs: number
  #ready: Promise<void> | undefined
  /** The workers of this queue waiting now, and the timer that looks for other processes' commits while any does. */
  #idle = 0
  #commitCheck: NodeJS.Timeout | undefined
  #checking = false
  /** `PRAGMA data_version` at the last look: the count of commits by other connections, as this one sees it. */
  #dataVersion: number | undefined

  constructor(
    /** The application's database, or the transaction under way. */
    private readonly database: () => Kysely<any> = db,
    private readonly leaseMs = LEASE_MS,
  ) {
    // Three chances to renew a lease before it runs out.
    this.heartbeatMs = leaseMs / 3
  }

  async push(job: PendingJob): Promise<void> {
    const now = Date.now()
    await this.#withTable((database) => sql`insert into fw_jobs (queue, name, payload, unique_key, state, max_attempts, backoff, available_at, created_at)
      values (${job.queue}, ${job.name}, ${JSON.stringify(job.payload ?? null)}, ${job.uniqueKey ?? null}, 'ready',
              ${job.attempts}, ${job.backoff}, ${job.availableAt.getTime()}, ${now})
      on conflict do nothing`.execute(database))
    // A worker of this process (fw serve's) takes it at once; one of another process sees the commit (see `wait`).
    await afterCommit(() => workersHere.wake())
  }

  /**
   * Sleeps up to `ms`, the poll that finds delayed jobs come due and expired leases; a dispatch in this process ends
   * the wait at once, and one in another process within `COMMIT_CHECK_MS`: while a worker waits, the queue reads
   * `PRAGMA data_version` that often, and looks for a due job only when it changed.
   */
  wait(ms: number, signal: AbortSignal): Promise<void> {
    if (this.#idle++ === 0) this.#commitCheck = setInterval(() => void this.#checkCommits(), COMMIT_CHECK_MS)
    return workersHere.wait(ms, signal).finally(() => {
      if (--this.#idle === 0) clearInterval(this.#commitCheck)
    })
  }

  async claim(queues: readonly string[], worker: string): Promise<ClaimedJob | undefined> {
    const now = Date.now()
    const lease = randomUUID()
    return this.#withTable((database) => database.transaction().execute(async (trx) => {
      await this.#expireLeases(trx, now)
      for (const queue of queues) {
        const { rows } = await sql<ClaimedRow>`update fw_jobs
          set state = 'active', attempts = attempts + 1, lease_token = ${lease}, worker = ${worker}, leased_until = ${now + this.leaseMs}
          where id = (select id from fw_jobs where state = 'ready' and queue = ${queue} and available_at <= ${now} order by available_at, id limit 1)
          returning id, queue, name, payload, attempts, max_attempts`.execute(trx)
        const row = rows[0]
        if (row) {
          return { id: String(row.id), queue: row.queue, name: row.name, payload: JSON.parse(row.payload), attempt: row.attempts, attempts: row.max_attempts, lease }
        }
      }
      return undefined
    }))
  }

  async heartbeat(job: ClaimedJob): Promise<boolean> {
    return this.#fenced(job, sql`update fw_jobs set leased_until = ${Date.now() + this.leaseMs}`)
  }

  async complete(job: ClaimedJob): Promise<boolean> {
    return this.#fenced(job, sql`delete from fw_jobs`)
  }

  async fail(job: ClaimedJob, error: unknown, { retry = true }: { retry?: boolean } = {}): Promise<FailOutcome> {
    const now = Date.now()
    const final = !retry || job.attempt >= job.attempts
    const stored = JSON.stringify(jobError(error))
    const changed = await this.#fenced(
      job,
      final
        ? sql`update fw_jobs set state = 'failed', failed_at = ${now}, last_error = ${stored}, lease_token = null, leased_until = null, worker = null`
        : sql`update fw_jobs set state = 'ready', available_at = ${now} + backoff * 1000 * (1 << (attempts - 1)), last_error = ${stored},
              lease_token = null, leased_until = null, worker = null`,
    )
    if (!changed) return 'lost'
    return final ? 'failed' : 'retry'
  }

  async unfinished(name: string, uniqueKey: string): Promise<boolean> {
    const { rows } = await this.#withTable((database) =>
      sql`select 1 from fw_jobs where name = ${name} and unique_key = ${uniqueKey} and state in ('ready', 'active') limit 1`.execute(database),
    )
    return rows.length > 0
  }

  async failed(): Promise<FailedJob[]> {
    const { rows } = await this.#withTable((database) =>
      sql<FailedRow>`select id, queue, name, payload, attempts, failed_at, last_error from fw_jobs
        where state = 'failed' order by failed_at, id`.execute(database),
    )
    return rows.map((row) => ({
      id: String(row.id),
      queue: row.queue,
      name: row.name,
      payload: JSON.parse(row.payload),
      attempts: row.attempts,
      failedAt: new Date(row.failed_at),
      error: storedError(row.last_error),
    }))
  }

  async retry(ids: readonly string[] | 'all'): Promise<number> {
    // A unique job whose twin already waits stays failed (`or ignore`): the waiting one will do its work.
    const { numAffectedRows } = await this.#withTable((database) =>
      sql`update or ignore fw_jobs
        set state = 'ready', attempts = 0, available_at = ${Date.now()}, failed_at = null
        where state = 'failed' and ${this.#only(ids)}`.execute(database),
    )
    return Number(numAffectedRows ?? 0)
  }

  async flush(ids: readonly string[] | 'all' = 'all'): Promise<number> {
    const { numAffectedRows } = await this.#withTable((database) => sql`delete from fw_jobs where state = 'failed' and ${this.#only(ids)}`.execute(database))
    return Number(numAffectedRows ?? 0)
  }

  async counts(): Promise<QueueCounts> {
    const { rows } = await this.#withTable((database) =>
      sql<{ state: string; count: number }>`select state, count(*) as count from fw_jobs group by state`.execute(database),
    )
    const count = (state: string) => Number(rows.find((row) => row.state === state)?.count ?? 0)
    return { waiting: count('ready'), active: count('active'), failed: count('failed') }
  }

  /**
   * Wakes the idle workers of this process when another process committed since the last look and a job is due.
   * `data_version` changes only for other connections' commits (never for this one's claims) and is read from the
   * WAL index in shared memory, synchronously: a few microseconds, without a query. Any commit changes it (a session
   * saved, a cache entry), so a read of the ready jobs' index decides before a worker takes the write lock to claim.
   * A failed look (the database closed, the table dropped) wakes no one: the poll finds the job.
   */
  async #checkCommits(): Promise<void> {
    if (this.#checking) return
    this.#checking = true
    try {
      const database = this.database()
      const version = sqliteDataVersion(database)
      if (version === this.#dataVersion) return
      this.#dataVersion = version
      const due = await sql`select 1 from fw_jobs where state = 'ready' and available_at <= ${Date.now()} limit 1`.execute(database)
      if (due.rows.length > 0) workersHere.wake()
    } catch {
      // The poll claims, and says what failed.
    } finally {
      this.#checking = false
    }
  }

  /** Gives back the jobs of workers that stopped renewing their lease (killed, or stalled): due now, or failed when that was their last run. */
  async #expireLeases(trx: Kysely<any>, now: number): Promise<void> {
    const error = JSON.stringify({ name: 'LeaseExpired', message: 'The worker running this job stopped renewing its lease (it was killed or stalled)' })
    await sql`update fw_jobs
      set state = case when attempts >= max_attempts then 'failed' else 'ready' end,
          failed_at = case when attempts >= max_attempts then ${now} end,
          available_at = ${now}, last_error = ${error}, lease_token = null, leased_until = null, worker = null
      where state = 'active' and leased_until < ${now}`.execute(trx)
  }

  /** Runs a write on the job only while it is still under this claim; whether it changed it. */
  async #fenced(job: ClaimedJob, statement: ReturnType<typeof sql>): Promise<boolean> {
    const { numAffectedRows } = await this.#withTable((database) =>
      sql`${statement} where id = ${Number(job.id)} and lease_token = ${job.lease} and state = 'active'`.execute(database),
    )
    return Number(numAffectedRows ?? 0) === 1
  }

  #only(ids: readonly string[] | 'all') {
    if (ids === 'all') return sql`1 = 1`
    return ids.length === 0 ? sql`0 = 1` : sql`id in (${sql.join(ids.map(Number))})`
  }

  /**
   * Runs `work` once the jobs table exists, and once more after making it again when it was dropped since
   * (`fw migrate:fresh` in another process drops every table under a running `fw serve`): the worker goes on, and a
   * dispatch is stored rather than failing after the request's own writes.
   */
  async #withTable<T>(work: (database: Kysely<any>) => Promise<T>): Promise<T> {
    const database = await this.#table()
    try {
      return await work(database)
    } catch (error) {
      if (!isMissingTable(error, JOBS_TABLE)) throw error
      this.#ready = undefined
      return work(await this.#table())
    }
  }

  /** The database, once the jobs table exists. Made again inside a transaction, whose rollback would undo it. */
  async #table(): Promise<Kysely<any>> {
    const database = this.database()
    if (this.#ready) {
      await this.#ready
      return database
    }
    if (dialectOf(database) !== 'sqlite') {
      throw new Error('The fw_jobs table is for SQLite: on PostgreSQL, QUEUE_DRIVER=database keeps the jobs in pg-boss')
    }
    if (database.isTransaction) {
      await createJobsTable(database)
      return database
    }
    this.#ready = createJobsTable(database).catch((error: unknown) => {
      this.#ready = undefined
      throw error
    })
    await this.#ready
    return database
  }
}
