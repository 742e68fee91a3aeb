import { sql, type Kysely } from 'kysely'
import { createTables, isMissingTable } from '../database/createTables.js'

/** The table `fw down` writes and every process reads, in the application's own database. */
export const MAINTENANCE_TABLE = 'fw_maintenance'

/** One row (id 1) while the application is down, none while it is up. */
const STATEMENTS = [sql`create table if not exists fw_maintenance (id integer primary key, state text not null)`]

/** What `fw down` stored: how the application answers while it is down. */
export interface MaintenanceState {
  /** When it went down, in milliseconds since 1970. */
  since: number
  /** Seconds for `Retry-After` (`--retry`, default 60). */
  retry: number
  /** Seconds for a `Refresh` header, which browsers follow (`--refresh`); none when undefined. */
  refresh?: number
  /** The SHA-256 (hex) of the bypass secret (`--secret`): `/<secret>` sets the bypass cookie. None when undefined. */
  secretHash?: string
  /** The HTML page browsers get (`--render`), stored whole so that every machine serves it; Fw's 503 page when undefined. */
  page?: string
}

/**
 * Makes the table when it is missing: a process that watches the state makes it once, so that its reads every second
 * never fail on PostgreSQL (where each would be an ERROR line in the server's log).
 */
export function createMaintenanceTable(database: Kysely<any>): Promise<void> {
  return createTables(database, STATEMENTS)
}

/** The stored state, or null while the application is up (a missing table is up: nobody ran `fw down` yet). */
export async function readMaintenance(database: Kysely<any>): Promise<MaintenanceState | null> {
  try {
    const { rows } = await sql<{ state: string }>`select state from fw_maintenance where id = 1`.execute(database)
    return rows.length === 0 ? null : (JSON.parse(rows[0]!.state) as MaintenanceState)
  } catch (error) {
    if (isMissingTable(error, MAINTENANCE_TABLE)) return null
    throw error
  }
}

/**
 * Takes the application down with `state`, in one statement; false when it was down already (the stored state is
 * left as it was).
 */
export async function putDown(database: Kysely<any>, state: MaintenanceState): Promise<boolean> {
  await createTables(database, STATEMENTS)
  const { rows } = await sql`insert into fw_maintenance (id, state) values (1, ${JSON.stringify(state)}) on conflict (id) do nothing returning id`.execute(
    database,
  )
  return rows.length === 1
}

/** Brings the application up; false when it was not down. */
export async function bringUp(database: Kysely<any>): Promise<boolean> {
  try {
    const { rows } = await sql`delete from fw_maintenance where id = 1 returning id`.execute(database)
    return rows.length === 1
  } catch (error) {
    if (isMissingTable(error, MAINTENANCE_TABLE)) return false
    throw error
  }
}
