import { createHash } from 'node:crypto'
import { hostname } from 'node:os'
import { setTimeout as sleep } from 'node:timers/promises'
import { sql, type Kysely } from 'kysely'
import { DatabaseUnavailableError } from './DatabaseUnavailableError.js'
import { dialectOf } from './dialectOf.js'

/** The table that holds the SQLite lock row (PostgreSQL and MySQL need none). */
export const MIGRATIONS_LOCK_TABLE = 'fw_migrations_lock'

/** Key of the PostgreSQL advisory lock that `fw migrate` holds ("fw-mig" in ASCII). */
const ADVISORY_KEY = 0x66772d6d6967n

/**
 * How long the SQLite lock stays valid without a renewal. The owner renews it every quarter of this and
 * inside each migration's transaction; a waiter takes over a lease that ran out, so an owner that died
 * (`kill -9`, a lost container) is replaced within this time even when another process now has its PID.
 */
export const MIGRATION_LEASE_MS = 20_000

/**
 * Keeps two `fw migrate` runs from applying the same migration. PostgreSQL: a session advisory lock,
 * which the server releases if the process dies; MySQL: a named lock (`GET_LOCK`), likewise. SQLite: a row in `fw_migrations_lock` naming the
 * owner process, held as a lease: taken over when it expires, or at once when its owner ran on this
 * host and has ended.
 */
export interface MigrationLock {
  acquire(): Promise<void>
  /** Extends the lease, in `db` (a migration's transaction) when given; throws when another run took the lock over. */
  renew(db?: Kysely<any>): Promise<void>
  release(): Promise<void>
}

/** Who holds the SQLite migration lock, as `fw migrate:unlock` reports it. */
export interface MigrationLockHolder {
  owner: string
  lockedAt: string
  /** Whether the lease ran out or its owner, a process of this host, has ended. */
  stale: boolean
}

export function migrationLock(connection: Kysely<any>, timeoutMs = 60_000, leaseMs = MIGRATION_LEASE_MS): MigrationLock {
  const dialect = dialectOf(connection)
  if (dialect === 'postgres') return postgresLock(connection)
  return dialect === 'mysql' ? mysqlLock(connection, timeoutMs) : sqliteLock(connection, timeoutMs, leaseMs)
}

function postgresLock(connection: Kysely<any>): MigrationLock {
  return {
    async acquire() {
      await sql`select pg_advisory_lock(${ADVISORY_KEY})`.execute(connection)
    },
    async renew() {},
    async release() {
      await sql`select pg_advisory_unlock(${ADVISORY_KEY})`.execute(connection)
    },
  }
}

/**
 * MySQL's lock names are server-wide, not per database: the name carries the database's, so that two applications on
 * one server do not wait for each other. A name is at most 64 characters.
 */
async function mysqlLockName(connection: Kysely<any>): Promise<string> {
  const { rows } = await sql<{ name: string }>`select database() as name`.execute(connection)
  const name = `fw-migrate:${rows[0]?.name ?? ''}`
  return name.length <= 64 ? name : `fw-migrate:${createHash('sha256').update(name).digest('hex').slice(0, 52)}`
}

function mysqlLock(connection: Kysely<any>, timeoutMs: number): MigrationLock {
  let name: string | undefined
  return {
    async acquire() {
      name = await mysqlLockName(connection)
      const { rows } = await sql<{ got: number | null }>`select get_lock(${name}, ${Math.max(0, Math.ceil(timeoutMs / 1000))}) as got`.execute(connection)
      if (rows[0]?.got === 1) return
      const holder = await mysqlLockHolder(connection, name)
      throw new Error(`Another fw migrate (${holder === undefined ? 'unknown' : `MySQL connection ${holder}`}) still holds the migration lock`)
    },
    async renew() {},
    async release() {
      if (name !== undefined) await sql`select release_lock(${name})`.execute(connection)
    },
  }
}

/** The id of the connection that holds a named lock, if one does. */
async function mysqlLockHolder(connection: Kysely<any>, name: string): Promise<number | undefined> {
  const { rows } = await sql<{ holder: number | null }>`select is_used_lock(${name}) as holder`.execute(connection)
  return rows[0]?.holder ?? undefined
}

const table = sql.id(MIGRATIONS_LOCK_TABLE)

interface LockRow {
  owner: string
  locked_at: string
  expires_at: number | null
}

/** Creates the lock table, or adds the lease column to one written by an older Fw. */
async function createLockTable(connection: Kysely<any>): Promise<void> {
  await sql`create table if not exists ${table} (id integer primary key, owner text not null, locked_at text not null, expires_at integer)`.execute(connection)
  const columns = await sql<{ name: string }>`select name from pragma_table_info(${MIGRATIONS_LOCK_TABLE})`.execute(connection)
  if (!columns.rows.some((column) => column.name === 'expires_at')) {
    await sql`alter table ${table} add column expires_at integer`.execute(connection)
  }
}

function isStale(row: LockRow, leaseMs: number, now = Date.now()): boolean {
  // A row of an older Fw has no lease: it counts from when it was taken.
  const expires = row.expires_at ?? Date.parse(row.locked_at) + leaseMs
  return !(expires > now) || isGone(row.owner)
}

function sqliteLock(connection: Kysely<any>, timeoutMs: number, leaseMs: number): MigrationLock {
  const owner = `${hostname()}:${process.pid}`
  let renewal: NodeJS.Timeout | undefined
  let lost = false
  const extend = async (db: Kysely<any>) => {
    const renewed = await sql`update ${table} set expires_at = ${Date.now() + leaseMs} where id = 1 and owner = ${owner}`.execute(db)
    if (renewed.numAffectedRows !== 1n) lost = true
  }
  return {
    async acquire() {
      await createLockTable(connection)
      const deadline = Date.now() + timeoutMs
      const tryInsert = async () => {
        try {
          const inserted = await sql`insert into ${table} (id, owner, locked_at, expires_at) values (1, ${owner}, ${new Date().toISOString()}, ${Date.now() + leaseMs}) on conflict (id) do nothing`.execute(
            connection,
          )
          return inserted.numAffectedRows === 1n
        } catch (error) {
          // Another process kept the write lock past the busy timeout (its migration's transaction): the lock is as good as taken.
          if (error instanceof DatabaseUnavailableError) return false
          throw error
        }
      }
      for (;;) {
        if (await tryInsert()) break
        const held = await sql<LockRow>`select owner, locked_at, expires_at from ${table} where id = 1`.execute(connection)
        const holder = held.rows[0]
        if (holder && isStale(holder, leaseMs)) {
          // Only the row as it was read: its owner may have renewed it, or another waiter taken over, since.
          await sql`delete from ${table} where id = 1 and owner = ${holder.owner} and locked_at = ${holder.locked_at} and coalesce(expires_at, -1) = ${holder.expires_at ?? -1}`.execute(
            connection,
          )
          continue
        }
        if (Date.now() > deadline) {
          throw new Error(
            `Another fw migrate (${holder?.owner ?? 'unknown'}, since ${holder?.locked_at ?? '?'}) still holds the migration lock`,
          )
        }
        await sleep(100)
      }
      renewal = setInterval(() => void extend(connection).catch(() => undefined), leaseMs / 4)
      renewal.unref()
    },
    async renew(db = connection) {
      await extend(db)
      if (lost) throw new Error(`The migration lock of ${owner} expired and another fw migrate took it over`)
    },
    async release() {
      clearInterval(renewal)
      await sql`delete from ${table} where id = 1 and owner = ${owner}`.execute(connection)
    },
  }
}

/**
 * Who holds the migration lock, if anyone; with `clear`, removes it too: a stale SQLite lock, or with
 * `force` a live one (on PostgreSQL, `force` ends the session that holds the advisory lock, which is then
 * released by the server). `fw migrate:unlock` calls it.
 */
export async function inspectMigrationLock(
  connection: Kysely<any>,
  options: { clear?: boolean; force?: boolean; leaseMs?: number } = {},
): Promise<{ holder: MigrationLockHolder | undefined; cleared: boolean }> {
  const dialect = dialectOf(connection)
  if (dialect === 'postgres') return inspectPostgresLock(connection, options.clear === true && options.force === true)
  if (dialect === 'mysql') return inspectMysqlLock(connection, options.clear === true && options.force === true)
  const tables = await connection.introspection.getTables()
  if (!tables.some((candidate) => candidate.name === MIGRATIONS_LOCK_TABLE)) return { holder: undefined, cleared: false }
  await createLockTable(connection)
  const row = (await sql<LockRow>`select owner, locked_at, expires_at from ${table} where id = 1`.execute(connection)).rows[0]
  if (!row) return { holder: undefined, cleared: false }
  const holder = { owner: row.owner, lockedAt: row.locked_at, stale: isStale(row, options.leaseMs ?? MIGRATION_LEASE_MS) }
  if (!options.clear || !(holder.stale || options.force)) return { holder, cleared: false }
  await sql`delete from ${table} where id = 1 and owner = ${row.owner} and locked_at = ${row.locked_at}`.execute(connection)
  return { holder, cleared: true }
}

async function inspectPostgresLock(connection: Kysely<any>, terminate: boolean): Promise<{ holder: MigrationLockHolder | undefined; cleared: boolean }> {
  // A bigint advisory key is stored as its high and low 32 bits.
  const { rows } = await sql<{ pid: number; since: string }>`select l.pid, coalesce(a.xact_start, a.backend_start)::text as since from pg_locks l join pg_stat_activity a on a.pid = l.pid where l.locktype = 'advisory' and l.granted and l.classid = ${Number(ADVISORY_KEY >> 32n)} and l.objid = ${Number(ADVISORY_KEY & 0xffffffffn)} and l.objsubid = 1`.execute(
    connection,
  )
  const row = rows[0]
  if (!row) return { holder: undefined, cleared: false }
  const holder = { owner: `PostgreSQL session ${row.pid}`, lockedAt: row.since, stale: false }
  if (!terminate) return { holder, cleared: false }
  // The session ends after the call returns unless told to wait: its lock is free only once it has (PostgreSQL 13+).
  await sql`select pg_terminate_backend(${row.pid}, 5000)`.execute(connection)
  return { holder, cleared: true }
}

async function inspectMysqlLock(connection: Kysely<any>, kill: boolean): Promise<{ holder: MigrationLockHolder | undefined; cleared: boolean }> {
  const name = await mysqlLockName(connection)
  const id = await mysqlLockHolder(connection, name)
  if (id === undefined) return { holder: undefined, cleared: false }
  const { rows } = await sql<{ since: number | null }>`select time as since from information_schema.processlist where id = ${id}`.execute(connection)
  const since = rows[0]?.since
  const holder = { owner: `MySQL connection ${id}`, lockedAt: since == null ? '?' : new Date(Date.now() - since * 1000).toISOString(), stale: false }
  if (!kill) return { holder, cleared: false }
  // The server frees the lock once the session has ended, a moment after KILL returns.
  await sql`kill ${sql.raw(String(Number(id)))}`.execute(connection)
  for (let waited = 0; waited < 5000 && (await mysqlLockHolder(connection, name)) !== undefined; waited += 50) await sleep(50)
  return { holder, cleared: true }
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
