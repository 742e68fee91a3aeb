import { sql, type Kysely } from 'kysely'
import { E_LOCK_NOT_OWNED } from '@verrou/core'
import type { LockStore } from '@verrou/core/types'
import { createTables, isMissingTable } from '../database/createTables.js'

/** The locks' table, in the application's own database, made on first use. */
export const LOCKS_TABLE = 'fw_cache_locks'

/** A lock's name, its owner's token, and when it expires in ms since the epoch (null: never). */
const STATEMENTS = [sql`create table if not exists fw_cache_locks (key varchar(255) primary key, owner varchar(255) not null, expiration bigint)`]

/**
 * verrou's lock store on Fw's own Kysely (SQLite or PostgreSQL), as Laravel's DatabaseLock: taking a lock is one
 * statement, an insert that, when the key is already there, takes it over only if it has expired
 * (`on conflict … do update … where expiration <= now`), so two owners can never both get it. Only the owner deletes
 * or extends it. Written for Fw rather than verrou's Kysely store, which tells PostgreSQL apart with `instanceof`
 * (wrong when kysely is bundled, as in fw-runtime) and makes its table from its constructor, where a database that is
 * down becomes an unhandled rejection.
 *
 * @example
 * ```ts
 * const locks = new LockFactory(new DatabaseLockStore(() => db))
 * ```
 */
export class DatabaseLockStore implements LockStore {
  constructor(private readonly database: () => Kysely<any>) {}

  async save(key: string, owner: string, ttl: number | null): Promise<boolean> {
    const now = Date.now()
    const expiration = ttl === null ? null : now + ttl
    const { rows } = await this.run(sql<{ owner: string }>`
      insert into fw_cache_locks (key, owner, expiration) values (${key}, ${owner}, ${expiration})
      on conflict (key) do update set owner = excluded.owner, expiration = excluded.expiration
        where fw_cache_locks.expiration is not null and fw_cache_locks.expiration <= ${now}
      returning owner`)
    return rows[0]?.owner === owner
  }

  async delete(key: string, owner: string): Promise<void> {
    const result = await this.run(sql`delete from fw_cache_locks where key = ${key} and owner = ${owner}`)
    if (Number(result.numAffectedRows ?? 0) === 0) throw new E_LOCK_NOT_OWNED()
  }

  async forceDelete(key: string): Promise<void> {
    await this.run(sql`delete from fw_cache_locks where key = ${key}`)
  }

  async exists(key: string): Promise<boolean> {
    const { rows } = await this.run(sql<{ expiration: number | string | null }>`select expiration from fw_cache_locks where key = ${key}`)
    const row = rows[0]
    if (!row) return false
    return row.expiration === null || Number(row.expiration) > Date.now()
  }

  async extend(key: string, owner: string, duration: number): Promise<void> {
    const now = Date.now()
    const result = await this.run(sql`
      update fw_cache_locks set expiration = ${now + duration}
      where key = ${key} and owner = ${owner} and (expiration is null or expiration > ${now})`)
    if (Number(result.numAffectedRows ?? 0) === 0) throw new E_LOCK_NOT_OWNED()
  }

  /** Runs a statement, making the table first when it is missing (first use, or after `fw migrate:fresh`). */
  private async run<Row>(statement: ReturnType<typeof sql<Row>>) {
    const database = this.database()
    try {
      return await statement.execute(database)
    } catch (error) {
      if (!isMissingTable(error, LOCKS_TABLE)) throw error
      await createTables(database, STATEMENTS)
      return statement.execute(database)
    }
  }
}
