import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql, type Kysely } from 'kysely'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { id } from '../../src/database/columns.js'
import { createDatabase } from '../../src/database/createDatabase.js'
import { foreignKeyFailures } from '../../src/database/sqliteForeignKeys.js'

/** The driver's error of a write that fails. */
async function failure(write: Promise<unknown>): Promise<object> {
  const error = await write.then(() => undefined, (error: unknown) => error)
  expect(error).toMatchObject({ code: 'SQLITE_CONSTRAINT_FOREIGNKEY' })
  return error as object
}

describe('locateForeignKeyFailure() on SQLite', () => {
  const folder = mkdtempSync(join(tmpdir(), 'fw-foreign-keys-'))
  let db: Kysely<any>
  beforeAll(async () => {
    db = createDatabase<any>(`sqlite:${join(folder, 'keys.sqlite')}`)
    await db.schema.createTable('teams').$call(id(db)).addColumn('name', 'text').execute()
    await db.schema.createTable('users').$call(id(db)).addColumn('name', 'text').execute()
    await db.schema
      .createTable('projects')
      .$call(id(db))
      .addColumn('team_id', 'integer', (column) => column.references('teams.id'))
      .addColumn('owner_id', 'integer', (column) => column.references('users.id'))
      .addColumn('name', 'text')
      .execute()
  })
  afterAll(async () => {
    await db.destroy()
    rmSync(folder, { recursive: true, force: true })
  })
  beforeEach(async () => {
    for (const table of ['projects', 'users', 'teams']) await db.deleteFrom(table).execute()
    await db.insertInto('teams').values({ name: 'Red' }).execute()
    await db.insertInto('users').values({ name: 'Ada' }).execute()
  })

  it('names every column whose value names no row, of any row of the statement', async () => {
    const error = await failure(db.insertInto('projects').values([{ team_id: 1, owner_id: 1, name: 'fine' }, { team_id: 1, owner_id: 7, name: 'owner' }, { team_id: 9, owner_id: 1, name: 'team' }]).execute())
    expect(foreignKeyFailures.get(error)).toEqual({ columns: ['owner_id', 'team_id'], referenced: false })
    expect(await db.selectFrom('projects').selectAll().execute()).toEqual([])
  })

  it('tells a row still referenced by others from a key that names no row', async () => {
    await db.insertInto('projects').values({ team_id: 1, name: 'Apollo' }).execute()
    expect(foreignKeyFailures.get(await failure(db.deleteFrom('teams').execute()))).toEqual({ columns: [], referenced: true })
    expect(foreignKeyFailures.get(await failure(db.updateTable('teams').set({ id: 5 }).execute()))).toEqual({ columns: [], referenced: true })
    expect(foreignKeyFailures.get(await failure(db.updateTable('projects').set({ team_id: 5 }).returning('id').execute()))).toEqual({ columns: ['team_id'], referenced: false })
  })

  it('undoes only its own work inside a transaction, and leaves the keys checked at once', async () => {
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('teams').values({ name: 'Green' }).execute()
      const error = await failure(trx.insertInto('projects').values({ team_id: 9, name: 'Lost' }).execute())
      expect(foreignKeyFailures.get(error)).toEqual({ columns: ['team_id'], referenced: false })
      expect((await sql<{ defer_foreign_keys: number }>`pragma defer_foreign_keys`.execute(trx)).rows).toEqual([{ defer_foreign_keys: 0 }])
      await failure(trx.insertInto('projects').values({ team_id: 8, name: 'Also lost' }).execute())
      await trx.insertInto('projects').values({ team_id: 2, name: 'Kept' }).execute()
    })
    expect(await db.selectFrom('teams').select('name').orderBy('id').execute()).toEqual([{ name: 'Red' }, { name: 'Green' }])
    expect(await db.selectFrom('projects').select('name').execute()).toEqual([{ name: 'Kept' }])
  })
})
