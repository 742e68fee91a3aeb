import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Kysely } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { id, timestamps } from '../../../src/database/columns.js'
import { createDatabase } from '../../../src/database/createDatabase.js'
import { introspectSchema } from '../../../src/database/schemaTypes/introspectSchema.js'
import { renderSchemaTypes } from '../../../src/database/schemaTypes/renderSchemaTypes.js'
import { startMariadb, type TestMariadb } from '../../support/mariadb.js'

let folder: string
let mariadb: TestMariadb
const databases: Kysely<any>[] = []

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'fw-schema-types-mysql-'))
  mariadb = await startMariadb()
}, 60_000)
afterAll(async () => {
  for (const database of databases) await database.destroy()
  await mariadb?.stop()
  rmSync(folder, { recursive: true, force: true })
})

/** The tables of a blog with make:auth's, written once with Fw's helpers, as an app's migrations would. */
async function migrate(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('users')
    .$call(id(db))
    .addColumn('name', 'varchar(255)', (column) => column.notNull())
    .addColumn('email', 'varchar(255)', (column) => column.notNull().unique())
    .addColumn('is_admin', 'boolean', (column) => column.notNull().defaultTo(false))
    .addColumn('email_verified_at', 'timestamp')
    .addColumn('settings', 'json')
    .$call(timestamps())
    .execute()
  await db.schema
    .createTable('posts')
    .$call(id(db))
    .addColumn('user_id', 'integer', (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('title', 'varchar(255)', (column) => column.notNull())
    .addColumn('body', 'text')
    .addColumn('status', 'varchar(16)', (column) => column.notNull().defaultTo('draft'))
    .addColumn('views', 'bigint', (column) => column.notNull().defaultTo(0))
    .addColumn('price', 'numeric(10, 2)')
    .addColumn('published_on', 'date')
    .addColumn('meta', 'json', (column) => column.notNull())
    .$call(timestamps())
    .execute()
  await db.schema
    .createTable('password_reset_tokens')
    .addColumn('user_id', 'integer', (column) => column.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'varchar(64)', (column) => column.notNull())
    .addColumn('created_at', 'timestamp', (column) => column.notNull())
    .execute()
  await db.schema.createView('post_titles').as(db.selectFrom('posts').select(['id', 'title', 'views'])).execute()
}

describe('introspectSchema on MariaDB', () => {
  it('gives the schema.d.ts of SQLite for the same migrations, byte for byte', async () => {
    const sqlite = createDatabase<any>(`sqlite:${join(folder, 'database.sqlite')}`)
    const mysql = createDatabase<any>(mariadb.url)
    databases.push(sqlite, mysql)
    await migrate(sqlite)
    await migrate(mysql)
    const fromSqlite = renderSchemaTypes(await introspectSchema(sqlite))
    const fromMysql = renderSchemaTypes(await introspectSchema(mysql))
    expect(fromMysql).toContain('is_admin: Generated<boolean>\n')
    expect(fromMysql).toContain('settings: JsonValue | null\n')
    expect(fromMysql).toContain('meta: JsonValue\n')
    expect(fromMysql).toContain('user_id: number\n')
    expect(fromMysql).toBe(fromSqlite)
  })
})
