import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql, type Kysely } from 'kysely'
import { afterAll, beforeAll, beforeEach } from 'vitest'
import { Container } from '../../src/container/Container.js'
import { id } from '../../src/database/columns.js'
import { createDatabase } from '../../src/database/createDatabase.js'
import { startPostgres } from './postgres.js'

/**
 * Teams, their users (email unique) and projects (a foreign key to teams, a name unique within a team): the
 * constraints that validation rules and violations are about, on SQLite and PostgreSQL alike; and the users' access
 * tokens, for actingAs.
 */
async function createTables(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('teams').$call(id(db)).addColumn('name', 'varchar(100)', (column) => column.notNull()).execute()
  await db.schema
    .createTable('users')
    .$call(id(db))
    .addColumn('name', 'varchar(100)', (column) => column.notNull())
    .addColumn('email', 'varchar(255)', (column) => column.notNull().unique())
    .addColumn('team_id', 'integer', (column) => column.references('teams.id'))
    .execute()
  await db.schema
    .createTable('projects')
    .$call(id(db))
    .addColumn('team_id', 'integer', (column) => column.notNull().references('teams.id'))
    .addColumn('owner_id', 'integer', (column) => column.references('users.id'))
    .addColumn('name', 'varchar(100)', (column) => column.notNull())
    .addUniqueConstraint('projects_team_name_unique', ['team_id', 'name'])
    .execute()
  // fw-runtime/auth's tokens, for the test client's actingAs.
  await db.schema
    .createTable('access_tokens')
    .$call(id(db))
    .addColumn('user_id', 'integer', (column) => column.notNull().references('users.id'))
    .addColumn('token_hash', 'varchar(64)', (column) => column.notNull().unique())
    .addColumn('kind', 'varchar(16)', (column) => column.notNull())
    .addColumn('expires_at', 'timestamp', (column) => column.notNull())
    .addColumn('last_used_at', 'timestamp')
    .execute()
}

/** The team database open as the container's `db`, emptied and seeded before each test. */
export interface TeamDatabase {
  db: Kysely<any>
  postgres: boolean
}

/** SQLite in a file of its own, and a throwaway PostgreSQL: `describe.each(teamBackends)('$name', ...)`. */
export const teamBackends = [
  {
    name: 'SQLite',
    async open() {
      const folder = mkdtempSync(join(tmpdir(), 'fw-teams-'))
      return { db: createDatabase<any>(`sqlite:${join(folder, 'teams.sqlite')}`), postgres: false, stop: async () => rmSync(folder, { recursive: true, force: true }) }
    },
  },
  {
    name: 'PostgreSQL',
    async open() {
      const server = await startPostgres()
      return { db: createDatabase<any>(server.url), postgres: true, stop: async () => server.stop() }
    },
  },
]

/**
 * Opens a backend for a `describe` block as the process-wide container's `db`; before each test the tables are
 * emptied and hold two teams (1 Red, 2 Blue), Ada (ada@example.com, team 1) and Red's project "Apollo".
 */
export function useTeamDatabase(backend: (typeof teamBackends)[number]): TeamDatabase {
  const database = {} as TeamDatabase
  let stop = async () => {}
  beforeAll(async () => {
    const opened = await backend.open()
    stop = async () => {
      await opened.db.destroy()
      await opened.stop()
    }
    await createTables(opened.db)
    Object.assign(database, { db: opened.db, postgres: opened.postgres })
    Container.setInstance(new Container().instance('db', opened.db))
  }, 60_000)
  afterAll(async () => {
    Container.setInstance(undefined)
    await stop()
  })
  beforeEach(async () => {
    const { db, postgres } = database
    for (const table of ['access_tokens', 'projects', 'users', 'teams']) {
      await db.deleteFrom(table).execute()
      if (postgres) await sql`alter table ${sql.table(table)} alter column id restart with 1`.execute(db)
    }
    await db.insertInto('teams').values([{ name: 'Red' }, { name: 'Blue' }]).execute()
    await db.insertInto('users').values({ name: 'Ada', email: 'ada@example.com', team_id: 1 }).execute()
    await db.insertInto('projects').values({ team_id: 1, owner_id: 1, name: 'Apollo' }).execute()
  })
  return database
}
