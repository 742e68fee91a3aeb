import type { Kysely, RawBuilder } from 'kysely'

/**
 * Runs `create table if not exists` statements of a table Fw keeps for itself, made on first use. Processes that start
 * together on PostgreSQL may race to create it (`create table if not exists` is not safe against a concurrent one
 * there): the loser tries again and finds it.
 *
 * @example
 * ```ts
 * await createTables(db, [sql`create table if not exists fw_things (id integer primary key)`])
 * ```
 */
export async function createTables(database: Kysely<any>, statements: readonly RawBuilder<unknown>[]): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      for (const statement of statements) await statement.execute(database)
      return
    } catch (error) {
      if (attempt >= 3) throw error
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt))
    }
  }
}

/**
 * Whether a statement failed because `table` is gone (`fw migrate:fresh` drops Fw's tables under a running app):
 * SQLite's "no such table", PostgreSQL's undefined_table (42P01) or MySQL's 1146, naming it.
 *
 * @example
 * ```ts
 * if (isMissingTable(error, 'fw_jobs')) await createJobsTable(db)
 * ```
 */
export function isMissingTable(error: unknown, table: string): boolean {
  if (!(error instanceof Error)) return false
  const { code, errno } = error as { code?: unknown; errno?: unknown }
  if (errno === 1146) return error.message.endsWith(`.${table}' doesn't exist`)
  return error.message.includes(`no such table: ${table}`) || (code === '42P01' && error.message.includes(`"${table}"`))
}
