import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Kysely } from 'kysely'
import { createDatabase } from '../../src/database/createDatabase.js'
import { MIGRATIONS_LOCK_TABLE } from '../../src/database/MigrationLock.js'
import { MIGRATIONS_TABLE, Migrator } from '../../src/database/Migrator.js'

let dir: string
let db: Kysely<any>
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'fw-status-'))
  mkdirSync(join(dir, 'migrations'))
  for (const name of ['20250101000000_create_notes_table', '20250102000000_create_tags_table']) {
    const table = name.split('_')[2]
    writeFileSync(
      join(dir, 'migrations', `${name}.mjs`),
      `export async function up(db) { await db.schema.createTable('${table}').addColumn('id', 'integer').execute() }\n`,
    )
  }
  db = createDatabase(`sqlite:${join(dir, 'app.sqlite')}`)
})
afterEach(async () => {
  await db.destroy()
  rmSync(dir, { recursive: true, force: true })
})

const tables = async () => (await db.introspection.getTables()).map((table) => table.name).sort()

describe('Migrator.status({ readOnly: true })', () => {
  it('lists every file as pending on a database that never migrated, and creates nothing', async () => {
    const status = await new Migrator({ db, folder: join(dir, 'migrations') }).status({ readOnly: true })

    expect(status).toEqual([
      { name: '20250101000000_create_notes_table', batch: undefined, hasFile: true },
      { name: '20250102000000_create_tags_table', batch: undefined, hasFile: true },
    ])
    expect(await tables()).toEqual([])
  })

  it('reads the batches that ran, as the locking status() does, without touching the lock table', async () => {
    const migrator = new Migrator({ db, folder: join(dir, 'migrations') })
    expect((await migrator.migrate()).error).toBeUndefined()
    writeFileSync(join(dir, 'migrations', '20250103000000_later.mjs'), 'export async function up() {}\n')
    await db.insertInto(MIGRATIONS_LOCK_TABLE).values({ id: 1, owner: 'elsewhere:1', locked_at: 'now' }).execute()

    const status = await migrator.status({ readOnly: true })

    expect(status.map((row) => [row.name, row.batch])).toEqual([
      ['20250101000000_create_notes_table', 1],
      ['20250102000000_create_tags_table', 1],
      ['20250103000000_later', undefined],
    ])
    expect(await tables()).toEqual([MIGRATIONS_TABLE, MIGRATIONS_LOCK_TABLE, 'notes', 'tags'].sort())
    expect(await db.selectFrom(MIGRATIONS_LOCK_TABLE).select('owner').execute()).toEqual([{ owner: 'elsewhere:1' }])
  })
})
