import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Kysely } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDatabase } from '../../../src/database/createDatabase.js'
import { id } from '../../../src/database/columns.js'
import { introspectSchema } from '../../../src/database/schemaTypes/introspectSchema.js'
import { renderSchemaTypes } from '../../../src/database/schemaTypes/renderSchemaTypes.js'
import { startPostgres, type TestPostgres } from '../../support/postgres.js'

let folder: string
let server: TestPostgres
const databases: Kysely<any>[] = []

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'fw-schema-types-'))
  server = await startPostgres()
})
afterAll(async () => {
  for (const database of databases) await database.destroy()
  server?.stop()
  rmSync(folder, { recursive: true, force: true })
})

/** The schema.d.ts of the tables `migrate` makes, on a fresh database of each kind. */
async function typesOnBoth(migrate: (db: Kysely<any>) => Promise<void>): Promise<{ sqlite: string; postgres: string }> {
  const sqlite = createDatabase(`sqlite:${join(folder, 'database.sqlite')}`)
  const postgres = createDatabase(server.url)
  databases.push(sqlite, postgres)
  for (const db of [sqlite, postgres]) await migrate(db)
  return { sqlite: renderSchemaTypes(await introspectSchema(sqlite)), postgres: renderSchemaTypes(await introspectSchema(postgres)) }
}

describe('introspectSchema', () => {
  it("types an integer key that references another table's key the same on both databases: the writer's value, not one the database numbers", async () => {
    // The shape of make:auth's password_reset_tokens: SQLite's `integer primary key` is its rowid, yet here the
    // application always writes it (the user's id), as on PostgreSQL, where the column has no default.
    const { sqlite, postgres } = await typesOnBoth(async (db) => {
      await db.schema.createTable('users').$call(id(db)).addColumn('email', 'varchar(255)', (column) => column.notNull()).execute()
      await db.schema
        .createTable('password_reset_tokens')
        .addColumn('user_id', 'integer', (column) => column.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('token_hash', 'varchar(64)', (column) => column.notNull())
        .addColumn('created_at', 'timestamp', (column) => column.notNull())
        .execute()
    })
    expect(sqlite).toContain('user_id: number\n')
    expect(sqlite).toContain('id: Generated<number>\n')
    expect(sqlite).toBe(postgres)
  })
})
