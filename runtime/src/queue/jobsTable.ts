import { sql, type Kysely } from 'kysely'

/** The table of the `database` queue driver, in the application's own database, made by the driver on first use. */
export const JOBS_TABLE = 'fw_jobs'

/**
 * One row per job until it is done (a completed job is deleted). Times are milliseconds since the epoch. A job is
 * `ready` (due at `available_at`), `active` (leased to `worker` until `leased_until`, its writes fenced by
 * `lease_token`) or `failed` (with `last_error`, as JSON `{ name, message, stack }`). The partial indexes keep what a
 * worker reads small whatever the failed jobs pile up to; the unique one lets one job per key wait, never a retry.
 */
const STATEMENTS = [
  sql`create table if not exists fw_jobs (
    id integer primary key autoincrement,
    queue text not null,
    name text not null,
    payload text not null,
    unique_key text,
    state text not null check (state in ('ready', 'active', 'failed')),
    attempts integer not null default 0,
    max_attempts integer not null,
    backoff integer not null,
    available_at integer not null,
    lease_token text,
    leased_until integer,
    worker text,
    last_error text,
    failed_at integer,
    created_at integer not null
  )`,
  sql`create index if not exists fw_jobs_ready on fw_jobs (queue, available_at, id) where state = 'ready'`,
  sql`create index if not exists fw_jobs_leases on fw_jobs (leased_until) where state = 'active'`,
  sql`create index if not exists fw_jobs_failed on fw_jobs (failed_at) where state = 'failed'`,
  sql`create unique index if not exists fw_jobs_unique on fw_jobs (name, unique_key) where unique_key is not null and state = 'ready' and attempts = 0`,
]

/** Creates the jobs table and its indexes when they are missing; it changes nothing otherwise. */
export async function createJobsTable(database: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await statement.execute(database)
}
