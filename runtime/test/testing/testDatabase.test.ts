import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cleanEnv, createFwApp, type FwApp } from '../support/fwApp.js'

const NOTES = `import type { Kysely } from 'fw-runtime'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('notes').addColumn('id', 'integer', (column) => column.primaryKey()).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('notes').execute()
}
`

/** What a vitest globalSetup does with testDatabase(), in the app's folder, as the built package ships it. */
const SETUP = `import { existsSync } from 'node:fs'
import { createDatabase, sql } from 'fw-runtime'
import { testDatabase } from 'fw-runtime/testing'

const teardown = testDatabase()
const url = process.env.DATABASE_URL
const db = createDatabase(url)
const { rows } = await sql\`select name from sqlite_master where type = 'table' order by name\`.execute(db)
await db.destroy()
teardown()
console.log(JSON.stringify({ url, tables: rows.map((row) => row.name), removed: !existsSync(url.slice('sqlite:'.length)) }))
`

describe('testDatabase() (fw-runtime/testing)', () => {
  let app: FwApp
  beforeAll(() => {
    app = createFwApp()
    app.write('database/migrations/20250101000000_create_notes_table.ts', NOTES)
    // The development database, which the tests must never open.
    app.write('.env', 'DATABASE_URL=sqlite:database/development.sqlite\n')
    app.write('setup.mjs', SETUP)
  })
  afterAll(() => app.remove())

  const setup = () => spawnSync(process.execPath, ['setup.mjs'], { cwd: app.dir, env: cleanEnv(), encoding: 'utf8' })

  it('gives the run a fresh SQLite file, migrated, and removes it; the development database is never opened', () => {
    const result = setup()
    expect(result.stderr).toBe('')
    const { url, tables, removed } = JSON.parse(result.stdout) as { url: string; tables: string[]; removed: boolean }
    expect(url).toMatch(/^sqlite:.*fw-test-database-[^/]+\/database\.sqlite$/)
    expect(tables).toEqual(expect.arrayContaining(['fw_migrations', 'notes']))
    expect(removed).toBe(true)
    expect(existsSync(`${app.dir}/database/development.sqlite`)).toBe(false)
  })

  it('fails with the output of fw migrate when a migration fails', () => {
    app.write('database/migrations/20250102000000_broken.ts', "export async function up(): Promise<void> {\n  throw new Error('column exploded')\n}\n")
    const result = setup()
    expect(result.status).not.toBe(0)
    expect(result.stderr).toContain('The test database could not be migrated (fw migrate):')
    expect(result.stderr).toContain('column exploded')
  })
})
