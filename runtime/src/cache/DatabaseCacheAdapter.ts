import { sql, type Kysely } from 'kysely'
import type { DatabaseAdapter } from 'bentocache/types'
import { createTables, isMissingTable } from '../database/createTables.js'

/** The cache's table, in the application's own database, made on first use. */
export const CACHE_TABLE = 'fw_cache'

/** A key, the entry as the cache wrote it (JSON), and when it expires in ms since the epoch (null: never). */
const STATEMENTS = [sql`create table if not exists fw_cache (key varchar(255) primary key, value text not null, expires_at bigint)`]

/**
 * bentocache's database store, on Fw's own Kysely (SQLite or PostgreSQL, with Fw's deadlines and its
 * DatabaseUnavailableError), rather than bentocache's Kysely adapter: that one writes a Date into a bigint column on
 * PostgreSQL, tells the dialect apart with `instanceof` (wrong when kysely is bundled, as in fw-runtime), and closes the
 * database on `disconnect()`. The table is made on first use; expired rows are deleted when read, and by `prune`.
 *
 * @example
 * ```ts
 * new DatabaseDriver(new DatabaseCacheAdapter(() => db), { autoCreateTable: false, pruneInterval: false })
 * ```
 */
export class DatabaseCacheAdapter implements DatabaseAdapter {
  constructor(private readonly database: () => Kysely<any>) {}

  /** The table is always fw_cache: Fw makes it, and `fw migrate:fresh` knows its name. */
  setTableName(): void {}

  async get(key: string): Promise<{ value: string; expiresAt: number | null } | undefined> {
    const { rows } = await this.run(sql<{ value: string; expires_at: number | string | null }>`select value, expires_at from fw_cache where key = ${key}`)
    const row = rows[0]
    if (!row) return undefined
    return { value: row.value, expiresAt: row.expires_at === null ? null : Number(row.expires_at) }
  }

  async set(row: { key: string; value: string; expiresAt: Date | null }): Promise<void> {
    const expiresAt = row.expiresAt === null ? null : row.expiresAt.getTime()
    await this.run(sql`
      insert into fw_cache (key, value, expires_at) values (${row.key}, ${row.value}, ${expiresAt})
      on conflict (key) do update set value = excluded.value, expires_at = excluded.expires_at`)
  }

  async delete(key: string): Promise<boolean> {
    const result = await this.run(sql`delete from fw_cache where key = ${key}`)
    return Number(result.numAffectedRows ?? 0) > 0
  }

  async deleteMany(keys: string[]): Promise<number> {
    if (keys.length === 0) return 0
    const result = await this.run(sql`delete from fw_cache where key in (${sql.join(keys)})`)
    return Number(result.numAffectedRows ?? 0)
  }

  /** Deletes the keys under `prefix` only: other prefixes in the same table are other caches. */
  async clear(prefix: string): Promise<void> {
    const pattern = `${prefix.replace(/[!%_]/g, (character) => `!${character}`)}%`
    await this.run(sql`delete from fw_cache where key like ${pattern} escape '!'`)
  }

  async pruneExpiredEntries(): Promise<void> {
    await this.run(sql`delete from fw_cache where expires_at is not null and expires_at <= ${Date.now()}`)
  }

  async createTableIfNotExists(): Promise<void> {
    await createTables(this.database(), STATEMENTS)
  }

  /** The database is the application's, shared: closing it is not the cache's to do. */
  async disconnect(): Promise<void> {}

  /** Runs a statement, making the table first when it is missing (first use, or after `fw migrate:fresh`). */
  private async run<Row>(statement: ReturnType<typeof sql<Row>>) {
    const database = this.database()
    try {
      return await statement.execute(database)
    } catch (error) {
      if (!isMissingTable(error, CACHE_TABLE)) throw error
      await createTables(database, STATEMENTS)
      return statement.execute(database)
    }
  }
}
