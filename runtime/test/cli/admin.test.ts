import type { Kysely } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDatabase } from '../../src/database/createDatabase.js'
import { createFwApp, type FwApp } from '../support/fwApp.js'
import { startPostgres, type TestPostgres } from '../support/postgres.js'

/** The users table of an application made before admin rights moved to the database. */
const USERS = `import { id, type Kysely } from 'fw-runtime'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('users').$call(id(db)).addColumn('email', 'varchar(255)', (column) => column.notNull().unique()).execute()
}
`

const ADD_IS_ADMIN = `import type { Kysely } from 'fw-runtime'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('is_admin', 'boolean', (column) => column.notNull().defaultTo(false)).execute()
}
`

const ADD_EMAIL_VERIFIED_AT = `import type { Kysely } from 'fw-runtime'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('email_verified_at', 'timestamp').execute()
}
`

const backends: { name: string; start(): Promise<{ url: string | undefined; stop(): void }> }[] = [
  { name: 'SQLite', start: async () => ({ url: undefined, stop() {} }) },
  {
    name: 'PostgreSQL',
    async start() {
      const postgres: TestPostgres = await startPostgres()
      return { url: postgres.url, stop: () => postgres.stop() }
    },
  },
]

describe.each(backends)('fw admin:grant and admin:revoke on $name', (backend) => {
  let app: FwApp
  let env: NodeJS.ProcessEnv
  let db: Kysely<any>
  let stop: () => void
  beforeAll(async () => {
    const database = await backend.start()
    stop = database.stop
    env = database.url ? { DATABASE_URL: database.url } : {}
    app = createFwApp()
    db = createDatabase<any>(database.url, app.dir)
  }, 60_000)
  afterAll(async () => {
    await db?.destroy()
    app?.remove()
    stop?.()
  })

  const isAdmin = async (email: string) => {
    // true or false, on SQLite as on PostgreSQL
    const row = await db.selectFrom('users').select('is_admin').where('email', '=', email).executeTakeFirstOrThrow()
    return row.is_admin as unknown
  }

  it('says to run make:auth and migrate when there is no users table, and exits 1', async () => {
    const result = await app.fw(['admin:grant', 'ada@example.com'], env)
    expect(result).toEqual({ code: 1, stdout: '', stderr: 'fw admin:grant: the database has no users table: run "fw make:auth", then "fw migrate"\n' })
  })

  it('says to run fw migrate when users has no is_admin column, and exits 1', async () => {
    app.write('database/migrations/20240101000000_create_users_table.ts', USERS)
    expect((await app.fw(['migrate'], env)).code).toBe(0)
    const result = await app.fw(['admin:revoke', 'ada@example.com'], env)
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: 'fw admin:revoke: the users table has no is_admin column: run "fw migrate" (fw make:dash adds its migration)\n',
    })
  })

  it('grants and revokes by email, in any case, and touches nobody else', async () => {
    app.write('database/migrations/20240102000000_add_is_admin_to_users_table.ts', ADD_IS_ADMIN)
    expect((await app.fw(['migrate'], env)).code).toBe(0)
    await db.insertInto('users').values([{ email: 'ada@example.com' }, { email: 'eve@example.com' }]).execute()

    const granted = await app.fw(['admin:grant', ' Ada@Example.com '], env)
    expect(granted).toEqual({ code: 0, stdout: 'ada@example.com is now an admin.\n', stderr: '' })
    expect(await isAdmin('ada@example.com')).toBe(true)
    expect(await isAdmin('eve@example.com')).toBe(false)
    // Granting twice is no mistake.
    expect((await app.fw(['admin:grant', 'ada@example.com'], env)).code).toBe(0)

    const revoked = await app.fw(['admin:revoke', 'ada@example.com'], env)
    expect(revoked).toEqual({ code: 0, stdout: 'ada@example.com is no longer an admin.\n', stderr: '' })
    expect(await isAdmin('ada@example.com')).toBe(false)
  })

  it('refuses an email nobody registered with, in one line, and exits 1', async () => {
    for (const command of ['admin:grant', 'admin:revoke']) {
      const result = await app.fw([command, 'mallory@example.com'], env)
      expect(result).toEqual({ code: 1, stdout: '', stderr: `fw ${command}: no registered user has the email mallory@example.com (they sign up at /register first)\n` })
    }
    expect(await isAdmin('eve@example.com')).toBe(false)
  })

  it('with email verification, grants only a verified email unless --force, and says so when forced', async () => {
    app.write('database/migrations/20240103000000_add_email_verified_at_to_users_table.ts', ADD_EMAIL_VERIFIED_AT)
    expect((await app.fw(['migrate'], env)).code).toBe(0)
    await db.insertInto('users').values({ email: 'boss@example.com' }).execute()

    // Whoever registered the address first, before its owner: not verified, so not made an admin.
    const refused = await app.fw(['admin:grant', 'Boss@example.com'], env)
    expect(refused).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'fw admin:grant: boss@example.com has not verified the email, so whoever registered it first would be admin: have its owner follow the verification link (mailed at sign-up, or asked for again at /email/verify), or pass --force\n',
    })
    expect(await isAdmin('boss@example.com')).toBe(false)

    const forced = await app.fw(['admin:grant', 'boss@example.com', '--force'], env)
    expect(forced).toEqual({ code: 0, stdout: 'boss@example.com is now an admin, although the email is not verified (--force).\n', stderr: '' })
    expect(await isAdmin('boss@example.com')).toBe(true)
    // Revoking needs no verified email.
    expect((await app.fw(['admin:revoke', 'boss@example.com'], env)).code).toBe(0)
    expect(await isAdmin('boss@example.com')).toBe(false)

    await db.updateTable('users').set({ email_verified_at: new Date().toISOString() }).where('email', '=', 'boss@example.com').execute()
    expect(await app.fw(['admin:grant', 'boss@example.com'], env)).toEqual({ code: 0, stdout: 'boss@example.com is now an admin.\n', stderr: '' })
    expect(await isAdmin('boss@example.com')).toBe(true)
  })

  it('needs the email', async () => {
    const result = await app.fw(['admin:grant'], env)
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('admin:grant')
    expect(result.stderr.trim().split('\n')).toHaveLength(1)
  })
})
