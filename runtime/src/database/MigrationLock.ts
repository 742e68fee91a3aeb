import { hostname } from 'node:os'
import { setTimeout as sleep } from 'node:timers/promises'
import { sql, type Kysely } from 'kysely'
import { dialectOf } from './dialectOf.js'

/** The table that holds the SQLite lock row (PostgreSQL needs none). */
export const MIGRATIONS_LOCK_TABLE = 'fw_migrations_lock'

/** Key of the PostgreSQL advisory lock that `fw migrate` holds ("fw-mig" in ASCII). */
const ADVISORY_KEY = 0x66772d6d6967n

/**
 * Keeps two `fw migrate` runs from applying the same migration. PostgreSQL: a session advisory lock,
 * which the server releases if the process dies. SQLite: a row in `fw_migrations_lock` naming the
 * owner process; a row left by a process that no longer runs on this host is taken over.
 */
export interface MigrationLock {
  acquire(): Promise<void>
  release(): Promise<void>
}

export function migrationLock(connection: Kysely<any>, timeoutMs = 60_000): MigrationLock {
  return dialectOf(connection) === 'postgres' ? postgresLock(connection) : sqliteLock(connection, timeoutMs)
}

function postgresLock(connection: Kysely<any>): MigrationLock {
  return {
    async acquire() {
      await sql`select pg_advisory_lock(${ADVISORY_KEY})`.execute(connection)
    },
    async release() {
      await sql`select pg_advisory_unlock(${ADVISORY_KEY})`.execute(connection)
    },
  }
}

function sqliteLock(connection: Kysely<any>, timeoutMs: number): MigrationLock {
  const owner = `${hostname()}:${process.pid}`
  return {
    async acquire() {
      await sql`create table if not exists ${sql.id(MIGRATIONS_LOCK_TABLE)} (id integer primary key, owner text not null, locked_at text not null)`.execute(
        connection,
      )
      const deadline = Date.now() + timeoutMs
      const tryInsert = async () => {
        try {
          const inserted = await sql`insert into ${sql.id(MIGRATIONS_LOCK_TABLE)} (id, owner, locked_at) values (1, ${owner}, ${new Date().toISOString()}) on conflict (id) do nothing`.execute(
            connection,
          )
          return inserted.numAffectedRows === 1n
        } catch (error) {
          // Another process is writing (its migration's transaction): the lock is as good as taken.
          if ((error as { code?: string }).code === 'SQLITE_BUSY') return false
          throw error
        }
      }
      for (;;) {
        if (await tryInsert()) return
        const held = await sql<{ owner: string; locked_at: string }>`select owner, locked_at from ${sql.id(MIGRATIONS_LOCK_TABLE)} where id = 1`.execute(connection)
        const holder = held.rows[0]
        if (holder && isGone(holder.owner)) {
          await sql`delete from ${sql.id(MIGRATIONS_LOCK_TABLE)} where id = 1 and owner = ${holder.owner}`.execute(connection)
          continue
        }
        if (Date.now() > deadline) {
          throw new Error(
            `Another fw migrate (${holder?.owner ?? 'unknown'}, since ${holder?.locked_at ?? '?'}) still holds the migration lock`,
          )
        }
        await sleep(100)
      }
    },
    async release() {
      await sql`delete from ${sql.id(MIGRATIONS_LOCK_TABLE)} where id = 1 and owner = ${owner}`.execute(connection)
    },
  }
}

/** Whether the lock's owner was a process on this host that has ended. */
function isGone(owner: string): boolean {
  const separator = owner.lastIndexOf(':')
  if (owner.slice(0, separator) !== hostname()) return false
  try {
    process.kill(Number(owner.slice(separator + 1)), 0)
    return false
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH'
  }
}
