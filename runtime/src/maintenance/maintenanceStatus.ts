import type { Kysely } from 'kysely'
import { createMaintenanceTable, readMaintenance, type MaintenanceState } from './maintenanceTable.js'

/** How long a process trusts what it read: `fw down` reaches every process within about this. */
export const MAINTENANCE_CHECK_MS = 1_000

interface Cached {
  state: MaintenanceState | null
  readAt: number
  reading: Promise<MaintenanceState | null> | undefined
  /** The last read failed: said once, not at every request. */
  failing: boolean
  /** The table is known to be there (this process made sure once). */
  made: boolean
}

const cache = new WeakMap<object, Cached>()

/**
 * Whether the application is down, as `fw down` stored it in the database: read at most once a second per process and
 * database (requests at the same moment share one read), so that checking it costs a request almost nothing and every
 * process of every machine follows `fw down` and `fw up` within about a second. A read that fails (the database is
 * unreachable) keeps the last answer and is said once on stderr: a database outage never makes the app look down.
 *
 * @example
 * ```ts
 * const state = await maintenanceStatus(db)   // null while up
 * ```
 */
export function maintenanceStatus(database: Kysely<any>, now = Date.now()): MaintenanceState | null | Promise<MaintenanceState | null> {
  let cached = cache.get(database)
  if (cached === undefined) cache.set(database, (cached = { state: null, readAt: Number.NEGATIVE_INFINITY, reading: undefined, failing: false, made: false }))
  if (now - cached.readAt < MAINTENANCE_CHECK_MS) return cached.state
  return (cached.reading ??= read(database, cached, now))
}

async function read(database: Kysely<any>, cached: Cached, now: number): Promise<MaintenanceState | null> {
  try {
    if (!cached.made) await createMaintenanceTable(database)
    cached.made = true
    cached.state = await readMaintenance(database)
    cached.failing = false
  } catch (error) {
    if (!cached.failing) console.error(`[fw] could not read the maintenance state (fw down); serving as before: ${(error as Error).message}`)
    cached.failing = true
  } finally {
    cached.readAt = now
    cached.reading = undefined
  }
  return cached.state
}
