import { isPostgresUrl } from '../database/createDatabase.js'
import { DatabaseQueue } from './DatabaseQueue.js'
import { queueDriverName } from './driverName.js'
import { sealPayload } from './encryptedPayload.js'
import { pendingJob } from './pendingJob.js'
import { PgBossQueue } from './PgBossQueue.js'
import { QueueFake } from './QueueFake.js'
import { SyncQueue } from './SyncQueue.js'
import type { DispatchOptions, JobConstructor, QueueDriver, StoredQueue } from './types.js'

/** How a driver is made: in a process that runs jobs, it also supervises them (pg-boss gives back a dead worker's). */
type MakeDriver = (options: { worker: boolean }) => QueueDriver

/** The drivers `QUEUE_DRIVER` names: `database` is the application's database, SQLite's table or PostgreSQL's pg-boss. */
const DRIVERS: Record<string, MakeDriver> = {
  sync: () => new SyncQueue(),
  database: ({ worker }) => (isPostgresUrl(process.env.DATABASE_URL ?? '') ? new PgBossQueue({ supervise: worker }) : new DatabaseQueue()),
  pgboss: ({ worker }) => new PgBossQueue({ supervise: worker }),
}

let chosen: QueueDriver | undefined

function isStored(driver: QueueDriver): driver is StoredQueue {
  return 'claim' in driver
}

/** The driver of `QUEUE_DRIVER` (default `database`, the application's database), made on first use. */
function driver(options = { worker: false }): QueueDriver {
  if (chosen) return chosen
  const name = queueDriverName()
  const make = DRIVERS[name]
  if (!make) throw new Error(`QUEUE_DRIVER=${name} is not a queue driver of Fw; it has: ${Object.keys(DRIVERS).join(', ')}`)
  return (chosen = make(options))
}

/**
 * The application's queue: where `Job.dispatch()` sends a job, through the driver `QUEUE_DRIVER` names (`database`,
 * the default, keeps it in the application's database for a worker; `sync` runs it at once), or a fake in tests.
 *
 * @example
 * ```ts
 * await queue.dispatch(SendWelcomeEmail, { userId: 1 }, { delay: 60 })   // as SendWelcomeEmail.dispatch(...)
 * const jobs = queue.fake()                                              // in a test
 * ```
 */
export const queue = {
  /**
   * Queues `job` with its payload (JSON) and options; inside `transaction()`, it exists once the transaction commits.
   * A driver that stores it gets the payload of an encrypted job (`static encrypted = true`) sealed; `sync` and a
   * fake, which store nothing, get it as it is.
   */
  async dispatch<P>(job: JobConstructor<P>, payload: P, options?: DispatchOptions): Promise<void> {
    const current = driver()
    const pending = pendingJob(job, payload, options)
    await current.push(isStored(current) ? sealPayload(pending) : pending)
  },

  /** The name of the driver in use: `sync`, `fake`, … */
  driverName(): string {
    return driver().name
  },

  /**
   * The driver in use when it stores jobs for workers (`database`); throws, saying why, when it does not. `worker`:
   * this process runs jobs (made now, the driver also supervises them).
   */
  stored(options = { worker: false }): StoredQueue {
    const current = driver(options)
    if (!isStored(current)) {
      throw new Error(`QUEUE_DRIVER=${current.name} keeps no jobs for a worker (sync runs each at dispatch): set QUEUE_DRIVER=database`)
    }
    return current
  },

  /** Whether the driver in use stores jobs for workers, so that `stored()` gives it: false for `sync` and a fake. */
  keepsJobs(): boolean {
    return isStored(driver())
  },

  /** Records dispatched jobs instead of running them, until `queue.restore()`; returns the fake to assert on. */
  fake(): QueueFake {
    const fake = new QueueFake()
    chosen = fake
    return fake
  },

  /** Puts `QUEUE_DRIVER`'s driver back after `fake()`. */
  restore(): void {
    chosen = undefined
  },
}
