import { sql, type Kysely } from 'kysely'
import { createTables } from '../database/createTables.js'

/** The table that `fw queue:restart` writes and every queue worker reads, in the application's own database. */
export const QUEUE_RESTARTS_TABLE = 'fw_queue_restarts'

/** How often a worker looks for a `fw queue:restart`. */
const CHECK_MS = 2_000

/** One row: the time of the last `fw queue:restart`, in milliseconds since the epoch. */
const STATEMENTS = [sql`create table if not exists fw_queue_restarts (id integer primary key, restart_at bigint not null)`]

/**
 * The time of the last `fw queue:restart` (0 when there was none), the table made when it is missing. A worker reads
 * it when it starts and again every few seconds: a different value tells it to finish its jobs in flight and exit,
 * as Laravel's `queue:restart`. Only a change counts, so the clocks of the machines need not agree.
 */
export async function lastQueueRestart(database: Kysely<any>): Promise<number> {
  await createTables(database, STATEMENTS)
  return readRestart(database)
}

async function readRestart(database: Kysely<any>): Promise<number> {
  const { rows } = await sql<{ restart_at: number | string }>`select restart_at from fw_queue_restarts where id = 1`.execute(database)
  return rows.length === 0 ? 0 : Number(rows[0]!.restart_at)
}

/** Tells every queue worker on this database to exit once its jobs in flight are done (`fw queue:restart`). */
export async function signalQueueRestart(database: Kysely<any>, now = Date.now()): Promise<void> {
  await createTables(database, STATEMENTS)
  await sql`insert into fw_queue_restarts (id, restart_at) values (1, ${now})
    on conflict (id) do update set restart_at = excluded.restart_at`.execute(database)
}

/**
 * Calls `restart` once, when a `fw queue:restart` is signalled after this call. A look that fails (the database is
 * down, the table was dropped by `fw migrate:fresh`) is tried again at the next one.
 *
 * @example
 * ```ts
 * const watch = await watchQueueRestart(db(), () => worker.stop('restart'))
 * await worker.run()
 * watch.stop()
 * ```
 */
export async function watchQueueRestart(database: Kysely<any>, restart: () => void, everyMs = CHECK_MS): Promise<{ stop(): void }> {
  const seen = await lastQueueRestart(database)
  const timer = setInterval(() => {
    readRestart(database).then(
      (at) => {
        if (at === seen) return
        clearInterval(timer)
        restart()
      },
      () => undefined,
    )
  }, everyMs)
  timer.unref()
  return { stop: () => clearInterval(timer) }
}
