import { createHash, randomUUID } from 'node:crypto'
import { sql, type Kysely } from 'kysely'
import type { Client } from 'pg'
import type { JobAttempt, PgBoss } from 'pg-boss'
import { isPostgresUrl } from '../database/createDatabase.js'
import { databaseUnavailable } from '../database/DatabaseUnavailableError.js'
import { db } from '../database/db.js'
import { isPostgresUnavailable } from '../database/postgresDialect.js'
import type { Logger } from '../log/Logger.js'
import { jobError, storedError } from './jobError.js'
import type { ClaimedJob, FailOutcome, FailedJob, PendingJob, QueueCounts, StoredQueue } from './types.js'
import { WakeUp } from './wakeUp.js'

/** The schema pg-boss keeps its tables in, in the application's database. */
const SCHEMA = 'pgboss'
/** pg-boss's jobs, which Fw's commands read and change beside pg-boss's own calls. */
const JOBS = sql.table(`${SCHEMA}.job`)

/**
 * The channel pg-boss NOTIFYs when a job of a queue created with `notify` is sent (in the statement that inserts it,
 * so at its commit): `pgboss_` and the start of the schema name's SHA-224, as pg-boss's `notifyChannelSql` makes it.
 */
const CHANNEL = `pgboss_${createHash('sha224').update(SCHEMA).digest('hex').slice(0, 24)}`

/** A job's heartbeat, in seconds (pg-boss's least): a job whose worker stops renewing it runs again after it. */
const HEARTBEAT_SECONDS = 10

/**
 * pg-boss's connections besides one per job running at once (what `runsAtOnce` is told): its supervision and
 * maintenance, and a dispatch. Its own default, 3 in all, is what a process that only dispatches gets.
 */
const SPARE_CONNECTIONS = 3

/** What Fw stores as a pg-boss job's data: the class's name and its payload. */
interface StoredData {
  name: string
  payload: unknown
}

/** What pg-boss's settling calls answer (its types declare an empty object). */
interface Settled {
  affected: number
}

export interface PgBossQueueOptions {
  /** The PostgreSQL URL (default `DATABASE_URL`). */
  url?: string
  /** The application's database, or the transaction under way: a dispatch is written through it. */
  database?: () => Kysely<any>
  /**
   * Runs pg-boss's supervision in this process (workers do): a job whose worker stopped heartbeating is given
   * back, or failed on its last attempt, within about 10 s of it.
   */
  supervise?: boolean
  logger?: Logger
}

/**
 * `QUEUE_DRIVER=database` on PostgreSQL: the jobs are kept by pg-boss (`SKIP LOCKED`, retries with backoff,
 * heartbeats), in the `pgboss` schema of the application's database, so that many processes on many machines share
 * one queue. A dispatch is written through `db()` (pg-boss's kysely adapter), so inside `transaction()` the job
 * exists once the transaction commits. Each claim is fenced: once the job was given to another worker, the first
 * one's complete, fail and heartbeat change nothing.
 */
export class PgBossQueue implements StoredQueue {
  readonly name = 'pgboss'
  readonly heartbeatMs = (HEARTBEAT_SECONDS * 1000) / 2
  #boss: Promise<PgBoss> | undefined
  readonly #queues = new Map<string, Promise<void>>()
  readonly #database: () => Kysely<any>
  readonly #wakeUp = new WakeUp()
  /** The jobs this process's workers run at once: each claims, renews and settles on a connection of the pool. */
  #jobsAtOnce = 0
  /** The connection that LISTENs for new jobs, while an idle worker waits; made again after PostgreSQL restarts. */
  #listener: Promise<Client | undefined> | undefined

  constructor(private readonly options: PgBossQueueOptions = {}) {
    this.#database = options.database ?? db
  }

  async push(job: PendingJob): Promise<void> {
    const [boss, { fromKysely }] = await Promise.all([this.#queue(job.queue), import('pg-boss')])
    const data: StoredData = { name: job.name, payload: job.payload ?? null }
    await boss.send(job.queue, data as object, {
      retryLimit: job.attempts - 1,
      retryDelay: job.backoff,
      retryBackoff: job.backoff > 0,
      startAfter: job.availableAt,
      heartbeatSeconds: HEARTBEAT_SECONDS,
      // Each queue lets one job per key wait (pg-boss's `short` policy): a job with no unique key gets one of its own.
      singletonKey: job.uniqueKey === undefined ? randomUUID() : uniqueKey(job.name, job.uniqueKey),
      db: fromKysely(this.#database()),
    })
  }

  async claim(queues: readonly string[]): Promise<ClaimedJob | undefined> {
    for (const queue of queues) {
      const boss = await this.#queue(queue)
      const [job] = await boss.fetch<StoredData>(queue, { batchSize: 1, includeMetadata: true })
      if (job) {
        return {
          id: job.id,
          queue,
          name: job.data.name,
          payload: job.data.payload,
          attempt: job.retryCount + 1,
          attempts: job.retryLimit + 1,
          lease: String(job.retryCount),
        }
      }
    }
    return undefined
  }

  async wait(ms: number, signal: AbortSignal): Promise<void> {
    void this.#listen()
    await this.#wakeUp.wait(ms, signal)
  }

  async heartbeat(job: ClaimedJob): Promise<boolean> {
    const boss = await this.#start()
    return ((await boss.touch(job.queue, attempt(job))) as Settled).affected === 1
  }

  async complete(job: ClaimedJob): Promise<boolean> {
    const boss = await this.#start()
    return ((await boss.complete(job.queue, attempt(job))) as Settled).affected === 1
  }

  async fail(job: ClaimedJob, error: unknown, { retry = true }: { retry?: boolean } = {}): Promise<FailOutcome> {
    const boss = await this.#start()
    const final = !retry || job.attempt >= job.attempts
    if (!retry) {
      await sql`update ${JOBS} set retry_limit = retry_count
        where name = ${job.queue} and id = ${job.id}::uuid and state = 'active' and retry_count = ${Number(job.lease)}`.execute(this.#database())
    }
    const settled = (await boss.fail(job.queue, attempt(job), jobError(error) as object)) as Settled
    if (settled.affected !== 1) return 'lost'
    return final ? 'failed' : 'retry'
  }

  async unfinished(name: string, key: string): Promise<boolean> {
    await this.#start()
    const { rows } = await sql`select 1 from ${JOBS} where singleton_key = ${uniqueKey(name, key)} and state in ('created', 'retry', 'active') limit 1`.execute(
      this.#database(),
    )
    return rows.length > 0
  }

  async failed(): Promise<FailedJob[]> {
    await this.#start()
    const { rows } = await sql<{ id: string; name: string; data: StoredData; retry_count: number; completed_on: Date; output: unknown }>`
      select id, name, data, retry_count, completed_on, output from ${JOBS} where state = 'failed' order by completed_on, id`.execute(this.#database())
    return rows.map((row) => ({
      id: row.id,
      queue: row.name,
      name: row.data.name,
      payload: row.data.payload,
      attempts: row.retry_count + 1,
      failedAt: new Date(row.completed_on),
      error: storedError(row.output),
    }))
  }

  async retry(ids: readonly string[] | 'all'): Promise<number> {
    await this.#start()
    // As pg-boss's own retry, with the job's attempts afresh (as on SQLite): its count back to none, so that its next
    // run is attempt 1 of as many as it was dispatched with (a claim counts a run only once `started_on` is set).
    // A unique job whose twin already waits stays failed, as pg-boss's one waiting job per key would have it.
    const { numAffectedRows } = await sql`update ${JOBS} as job
      set state = 'retry', retry_count = 0, started_on = null, completed_on = null, start_after = greatest(job.start_after, now())
      where job.state = 'failed' and ${this.#only(ids)}
        and not exists (select 1 from ${JOBS} as twin
          where twin.name = job.name and twin.singleton_key = job.singleton_key and twin.state = 'created' and twin.id <> job.id)`.execute(this.#database())
    return Number(numAffectedRows ?? 0)
  }

  async flush(ids: readonly string[] | 'all' = 'all'): Promise<number> {
    await this.#start()
    const { numAffectedRows } = await sql`delete from ${JOBS} where state = 'failed' and ${this.#only(ids)}`.execute(this.#database())
    return Number(numAffectedRows ?? 0)
  }

  async counts(): Promise<QueueCounts> {
    await this.#start()
    const { rows } = await sql<{ state: string; count: number }>`select state::text as state, count(*)::int as count from ${JOBS} group by state`.execute(this.#database())
    const count = (...states: string[]) => rows.filter((row) => states.includes(row.state)).reduce((sum, row) => sum + Number(row.count), 0)
    return { waiting: count('created', 'retry'), active: count('active'), failed: count('failed') }
  }

  /**
   * Sizes pg-boss's pool for `jobs` more at once (`fw queue:work --concurrency`): without a connection each, the
   * jobs' claims, heartbeats and completions would wait in line for pg-boss's 3. Read when pg-boss starts, at the
   * first claim or dispatch; a worker tells it before its first claim.
   */
  runsAtOnce(jobs: number): void {
    this.#jobsAtOnce += jobs
  }

  async close(): Promise<void> {
    const listener = await this.#listener
    this.#listener = undefined
    await listener?.end().catch(() => undefined)
    const boss = await this.#boss?.catch(() => undefined)
    this.#boss = undefined
    this.#queues.clear()
    await boss?.stop({ graceful: false, close: true })
  }

  #only(ids: readonly string[] | 'all') {
    if (ids === 'all') return sql`true`
    return ids.length === 0 ? sql`false` : sql`id::text in (${sql.join([...ids])})`
  }

  /** pg-boss, started (its schema installed or migrated, under its own lock) on first use. */
  #start(): Promise<PgBoss> {
    this.#boss ??= this.#open().catch((error: unknown) => {
      this.#boss = undefined
      throw unavailable(error)
    })
    return this.#boss
  }

  async #open(): Promise<PgBoss> {
    const url = this.options.url ?? process.env.DATABASE_URL
    if (!url || !isPostgresUrl(url)) throw new Error('QUEUE_DRIVER=pgboss keeps its jobs in PostgreSQL: set DATABASE_URL=postgres://…')
    const { PgBoss } = await import('pg-boss')
    const supervise = this.options.supervise ?? false
    const boss = new PgBoss({
      connectionString: url,
      schema: SCHEMA,
      application_name: 'fw-queue',
      max: SPARE_CONNECTIONS + this.#jobsAtOnce,
      // Fw's scheduler claims its slots in the application's database; pg-boss's cron stays off.
      schedule: false,
      supervise,
      superviseIntervalSeconds: 5,
      monitorIntervalSeconds: 5,
      registerInstance: false,
    })
    const logger = this.options.logger ?? console
    // Without a listener, an error pg-boss emits (PostgreSQL restarting) would end the process. Its message is
    // enough: the error holds the whole connection, which would fill the log.
    boss.on('error', (error) => logger.error(`[fw] queue (pg-boss): ${error instanceof Error ? error.message : String(error)}`))
    await boss.start()
    return boss
  }

  /**
   * LISTENs on pg-boss's channel, so that an idle worker claims a new job the moment it is committed rather than at
   * its next poll. Best effort: without the connection (PostgreSQL down), workers poll, and the next wait tries again.
   */
  #listen(): Promise<Client | undefined> {
    this.#listener ??= (async () => {
      const { default: pg } = await import('pg')
      const client = new pg.Client({ connectionString: this.options.url ?? process.env.DATABASE_URL, application_name: 'fw-queue-listen' })
      const lost = () => {
        this.#listener = undefined
        client.end().catch(() => undefined)
      }
      client.on('notification', () => this.#wakeUp.wake())
      client.on('error', lost)
      client.on('end', lost)
      await client.connect()
      await client.query(`listen "${CHANNEL}"`)
      return client
    })().catch(() => {
      this.#listener = undefined
      return undefined
    })
    return this.#listener
  }

  /** pg-boss, once `queue` exists (created on first use: one waiting job per key, a NOTIFY for each job sent). */
  async #queue(queue: string): Promise<PgBoss> {
    const boss = await this.#start()
    let created = this.#queues.get(queue)
    if (!created) {
      created = boss.createQueue(queue, { policy: 'short', notify: true }).catch((error: unknown) => {
        this.#queues.delete(queue)
        throw unavailable(error)
      })
      this.#queues.set(queue, created)
    }
    await created
    return boss
  }
}

function attempt(job: ClaimedJob): JobAttempt {
  return { id: job.id, retryCount: Number(job.lease) }
}

function uniqueKey(name: string, key: string): string {
  return `${name}:${key}`
}

/** PostgreSQL out of reach is a 503 in a request, as for any query; anything else stays as it is. */
function unavailable(error: unknown): unknown {
  return isPostgresUnavailable(error) ? databaseUnavailable(error) : error
}
