import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql, type Kysely } from 'kysely'
import { afterAll, beforeAll } from 'vitest'
import { Container } from '../../src/container/Container.js'
import { createDatabase } from '../../src/database/createDatabase.js'
import { startPostgres, type TestPostgres } from './postgres.js'

/** The two databases an application runs on, for `describe.each(databases)`. */
export const databases = [{ name: 'SQLite' }, { name: 'PostgreSQL' }] as const

/**
 * In a describe block: the application's database on SQLite (a file in a temporary folder) or on a real PostgreSQL
 * (started for the block), with one table `notes (title text not null)`, made the process-wide container's `db`
 * until the block ends, when it is closed and removed.
 *
 * @example
 * ```ts
 * describe.each(databases)('on $name', ({ name }) => {
 *   const notes = useNotesDatabase(name)
 *   it('…', async () => { await notes.database().selectFrom('notes').selectAll().execute() })
 * })
 * ```
 */
export function useNotesDatabase(name: (typeof databases)[number]['name']): { database(): Kysely<any> } {
  let database: Kysely<any> | undefined
  let folder: string | undefined
  let postgres: TestPostgres | undefined
  beforeAll(async () => {
    if (name === 'SQLite') folder = mkdtempSync(join(tmpdir(), 'fw-notes-'))
    else postgres = await startPostgres()
    database = createDatabase(folder ? `sqlite:${join(folder, 'database.sqlite')}` : postgres!.url)
    await sql`create table notes (title text not null)`.execute(database)
    Container.setInstance(new Container().instance('db', database))
  })
  afterAll(async () => {
    Container.setInstance(undefined)
    await database?.destroy()
    postgres?.stop()
    if (folder) rmSync(folder, { recursive: true, force: true })
  })
  return {
    database() {
      if (!database) throw new Error('The notes database opens in beforeAll: use it inside a test')
      return database
    },
  }
}
