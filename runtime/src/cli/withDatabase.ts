import type { Kysely } from 'kysely'
import { CommandError } from './Command.js'

export type Database = Kysely<any>

/**
 * Opens the application's database (its `DATABASE_URL`, from the environment or `.env`), runs the work, and
 * always closes it. Migrations may rebuild big tables: the statement timeout meant for requests does not apply.
 */
export async function withDatabase<T>(command: string, cwd: string, work: (db: Database) => Promise<T>): Promise<T> {
  const [{ loadEnv }, { createDatabase }] = await Promise.all([import('../config/loadEnv.js'), import('../database/createDatabase.js')])
  loadEnv(`${cwd}/.env`)
  let db: Database
  try {
    db = createDatabase(process.env.DATABASE_URL, { root: cwd, statementTimeoutMs: 0 })
  } catch (error) {
    // A configuration the user can fix (an unsupported DATABASE_URL, a bad DB_* value): one line, no stack to ask for.
    throw new CommandError(`fw ${command} failed: ${error instanceof Error ? error.message : String(error)}`)
  }
  try {
    return await work(db)
  } finally {
    await db.destroy()
  }
}
