import { sql, type Kysely } from 'kysely'
import { createTables } from '../database/createTables.js'

/** The table of the scheduler's claims, in the application's own database, made on first use. */
export const SCHEDULE_RUNS_TABLE = 'fw_schedule_runs'

/** How long a claim is kept: long enough to show what ran lately, short enough to keep the table small. */
export const KEEP_RUNS_MS = 7 * 24 * 60 * 60 * 1000

/**
 * One row per run of a task: its key and its time (milliseconds since the epoch, a whole second: the slot every
 * scheduler computes alike from the cron expression). The primary key is what lets one scheduler only run a slot.
 */
const STATEMENTS = [
  sql`create table if not exists fw_schedule_runs (
    task text not null,
    run_at bigint not null,
    created_at bigint not null,
    primary key (task, run_at)
  )`,
  sql`create index if not exists fw_schedule_runs_run_at on fw_schedule_runs (run_at)`,
]

/** Creates the runs table when it is missing. */
export async function createScheduleRunsTable(database: Kysely<any>): Promise<void> {
  await createTables(database, STATEMENTS)
}

/**
 * Claims the run of `task` at `runAt`: true for the one caller that recorded it, false for every later one. Inside
 * `transaction()` the claim is part of the transaction: a rollback gives the slot back.
 */
export async function claimRun(database: Kysely<any>, task: string, runAt: number): Promise<boolean> {
  const { rows } = await sql`insert into fw_schedule_runs (task, run_at, created_at) values (${task}, ${runAt}, ${Date.now()})
    on conflict do nothing returning task`.execute(database)
  return rows.length === 1
}

/** Deletes the claims older than `KEEP_RUNS_MS`; the number deleted. */
export async function pruneRuns(database: Kysely<any>, now = Date.now()): Promise<number> {
  const { numAffectedRows } = await sql`delete from fw_schedule_runs where run_at < ${now - KEEP_RUNS_MS}`.execute(database)
  return Number(numAffectedRows ?? 0)
}
