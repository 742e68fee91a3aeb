import { createHash } from 'node:crypto'
import { sql, type Kysely } from 'kysely'
import { Container } from '../container/Container.js'
import { createTables, isMissingTable } from '../database/createTables.js'
import type { RateLimitCount, RateLimitStore } from './RateLimitStore.js'

/** The table of the rate-limit counters, in the application's own database, made on first use. */
export const RATE_LIMITS_TABLE = 'fw_rate_limits'

/** The SHA-256 of the counted key (in hex: no address or id stored as it is), its hits, and when its window ends (ms). */
const STATEMENTS = [sql`create table if not exists fw_rate_limits (key varchar(64) primary key, hits integer not null, reset_at bigint not null)`]

/** How often a process deletes the counters whose window has ended. */
const PRUNE_EVERY_MS = 60_000

/**
 * Rate-limit counters in the application's database (SQLite or PostgreSQL), so that every process and machine on it
 * shares them. Each hit is one `insert … on conflict do update … returning` statement: atomic on both databases, so
 * that requests at the same moment in different processes are never under-counted. The table is made on first use;
 * the rows whose window has ended are deleted about once a minute.
 *
 * @example
 * ```ts
 * const store = new DatabaseRateLimitStore()       // the app's `db` service, looked up on each hit
 * await store.increment('api|42', 60_000, Date.now()) // { hits: 1, resetAt: … }
 * ```
 */
export class DatabaseRateLimitStore implements RateLimitStore {
  private prunedAt = 0

  /** `database`: a kysely instance, or by default the container's `db` (the root one: a rollback never undoes a hit). */
  constructor(private readonly database: () => Kysely<any> = () => Container.getInstance().make<Kysely<any>>('db')) {}

  async increment(key: string, decayMs: number, now: number): Promise<RateLimitCount> {
    const database = this.database()
    const hashed = hashKey(key)
    let row: { hits: number | string; reset_at: number | string }
    try {
      row = await upsert(database, hashed, now + decayMs, now)
    } catch (error) {
      if (!isMissingTable(error, RATE_LIMITS_TABLE)) throw error
      await createTables(database, STATEMENTS)
      row = await upsert(database, hashed, now + decayMs, now)
    }
    if (now - this.prunedAt > PRUNE_EVERY_MS) {
      this.prunedAt = now
      // Housekeeping off the request's path; a failure here costs nothing but a bigger table.
      sql`delete from fw_rate_limits where reset_at <= ${now}`.execute(database).catch(() => undefined)
    }
    return { hits: Number(row.hits), resetAt: Number(row.reset_at) }
  }

  async clear(key: string): Promise<void> {
    try {
      await sql`delete from fw_rate_limits where key = ${hashKey(key)}`.execute(this.database())
    } catch (error) {
      if (!isMissingTable(error, RATE_LIMITS_TABLE)) throw error
    }
  }
}

/** One statement: the hit counted, or the window started again when it has ended (the right-hand sides read the old row). */
async function upsert(database: Kysely<any>, key: string, resetAt: number, now: number) {
  const { rows } = await sql<{ hits: number | string; reset_at: number | string }>`
    insert into fw_rate_limits (key, hits, reset_at) values (${key}, 1, ${resetAt})
    on conflict (key) do update set
      hits = case when fw_rate_limits.reset_at <= ${now} then 1 else fw_rate_limits.hits + 1 end,
      reset_at = case when fw_rate_limits.reset_at <= ${now} then excluded.reset_at else fw_rate_limits.reset_at end
    returning hits, reset_at`.execute(database)
  return rows[0]!
}

function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex')
}
