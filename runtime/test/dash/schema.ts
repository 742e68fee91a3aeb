import { sql, type Kysely } from 'kysely'
import { id, timestamps } from '../../src/database/columns.js'
import { createDatabase } from '../../src/database/createDatabase.js'
import { startPostgres } from '../support/postgres.js'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** The tables make:auth and an application make: secrets, bookkeeping, every kind of column, a view. */
export async function createSchema(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('users')
    .$call(id(db))
    .addColumn('name', 'varchar(255)', (column) => column.notNull())
    .addColumn('email', 'varchar(255)', (column) => column.notNull().unique())
    .addColumn('password_hash', 'varchar(255)', (column) => column.notNull())
    .addColumn('remember_token', 'varchar(100)')
    .addColumn('is_admin', 'boolean', (column) => column.notNull().defaultTo(false))
    .$call(timestamps())
    .execute()
  await db.schema
    .createTable('access_tokens')
    .$call(id(db))
    .addColumn('user_id', 'integer', (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'varchar(64)', (column) => column.notNull().unique())
    .addColumn('kind', 'varchar(16)', (column) => column.notNull())
    .execute()
  await db.schema
    .createTable('posts')
    .$call(id(db))
    .addColumn('title', 'varchar(20)', (column) => column.notNull())
    .addColumn('body', 'text')
    .addColumn('views', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('published', 'boolean', (column) => column.notNull().defaultTo(false))
    .addColumn('published_on', 'date')
    .addColumn('rating', 'real')
    .addColumn('meta', 'json')
    .$call(timestamps())
    .execute()
  await db.schema.createView('titles').as(db.selectFrom('posts').select(['id', 'title'])).execute()
  await db.schema.createTable('secrets_only').addColumn('api_key', 'text').execute()
  await sql`insert into users (name, email, password_hash) values ('Ada', 'ada@example.com', 'scrypt$16384$8$1$salt$hash'), ('Eve', 'eve@example.com', 'scrypt$16384$8$1$salt$other')`.execute(db)
}

/** SQLite in a file of its own, and a throwaway PostgreSQL: the two databases Fw supports. */
export const backends: { name: string; open(): Promise<{ db: Kysely<any>; close(): Promise<void> }> }[] = [
  {
    name: 'SQLite',
    async open() {
      const folder = mkdtempSync(join(tmpdir(), 'fw-dash-'))
      const db = createDatabase<any>('sqlite:database.sqlite', folder)
      return {
        db,
        async close() {
          await db.destroy()
          rmSync(folder, { recursive: true, force: true })
        },
      }
    },
  },
  {
    name: 'PostgreSQL',
    async open() {
      const postgres = await startPostgres()
      const db = createDatabase<any>(postgres.url)
      return {
        db,
        async close() {
          await db.destroy()
          postgres.stop()
        },
      }
    },
  },
]
