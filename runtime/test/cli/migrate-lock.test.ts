import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { readdirSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createDatabase } from '../../src/database/createDatabase.js'
import { createFwApp, FW, cleanEnv, type FwApp } from '../support/fwApp.js'

let app: FwApp
beforeEach(() => {
  app = createFwApp()
})
afterEach(() => app.remove())

async function query<T>(work: (db: ReturnType<typeof createDatabase<any>>) => Promise<T>): Promise<T> {
  const db = createDatabase<any>(undefined, app.dir)
  try {
    return await work(db)
  } finally {
    await db.destroy()
  }
}

/** A lock row as a fw migrate of this host with `pid` would have left it. */
async function lockRow(pid: number, expiresAt: number): Promise<void> {
  await query(async (db) => {
    await sql`create table if not exists fw_migrations_lock (id integer primary key, owner text not null, locked_at text not null, expires_at integer)`.execute(db)
    await sql`insert into fw_migrations_lock values (1, ${`${hostname()}:${pid}`}, '2026-01-01T00:00:00.000Z', ${expiresAt})`.execute(db)
  })
}

describe('the SQLite migration lock', () => {
  it('fw migrate takes over from a dead owner whose PID was reused, within 60 s', async () => {
    await app.fw(['make:migration', 'create_slow_table'])
    const slow = readdirSync(join(app.dir, 'database/migrations'))[0]!
    writeFileSync(
      join(app.dir, 'database/migrations', slow),
      [
        "import { id, type Kysely } from 'fw-runtime'",
        "import { setTimeout } from 'node:timers/promises'",
        'export async function up(db: Kysely<any>): Promise<void> {',
        "  await db.schema.createTable('slow').$call(id(db)).execute()",
        "  if (!process.env.FAST) await setTimeout(600_000)",
        '}',
        "export async function down(db: Kysely<any>): Promise<void> {\n  await db.schema.dropTable('slow').execute()\n}",
      ].join('\n'),
    )
    const stuck = spawn(process.execPath, [FW, 'migrate'], { cwd: app.dir, env: cleanEnv(), stdio: 'ignore' })
    // Wait until it holds the lock, then kill it the hard way.
    let owner: string | undefined
    while (!owner) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      owner = await query(async (db) => (await sql<{ owner: string }>`select owner from fw_migrations_lock`.execute(db).catch(() => ({ rows: [] }))).rows[0]?.owner)
    }
    expect(owner).toBe(`${hostname()}:${stuck.pid}`)
    stuck.kill('SIGKILL')
    await once(stuck, 'exit')
    // Its PID now belongs to a live process (this one), as after a container restart.
    await query((db) => sql`update fw_migrations_lock set owner = ${`${hostname()}:${process.pid}`}`.execute(db))

    const started = Date.now()
    const result = await app.fw(['migrate'], { FAST: '1' })

    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/^Migrated  \d+_create_slow_table /)
    expect(Date.now() - started).toBeLessThan(60_000)
    expect(await query(async (db) => (await sql`select * from fw_migrations_lock`.execute(db)).rows)).toEqual([])
  }, 90_000)

  it('fw migrate:unlock releases a stale lock, and a live one only with --force', async () => {
    expect(await app.fw(['migrate:unlock'])).toMatchObject({ code: 0, stdout: 'No fw migrate holds the migration lock.\n' })

    await lockRow(process.pid, Date.now() + 60_000)
    const live = await app.fw(['migrate:unlock'])
    expect(live.code).toBe(1)
    expect(live.stderr).toBe(
      `${hostname()}:${process.pid} holds the migration lock since 2026-01-01T00:00:00.000Z and is alive: wait for it to finish, or run fw migrate:unlock --force\n`,
    )
    const forced = await app.fw(['migrate:unlock', '--force'])
    expect(forced).toMatchObject({ code: 0, stdout: `Released the migration lock of ${hostname()}:${process.pid} (since 2026-01-01T00:00:00.000Z).\n` })

    await lockRow(process.pid, Date.now() - 1)
    expect((await app.fw(['migrate:unlock'])).code).toBe(0)
    expect(await query(async (db) => (await sql`select * from fw_migrations_lock`.execute(db)).rows)).toEqual([])
  })
})

describe('migrate:fresh and migrate:reset in production', () => {
  beforeEach(async () => {
    await app.fw(['make:migration', 'create_posts_table'])
    expect((await app.fw(['migrate'])).code).toBe(0)
  })
  const tables = () => query(async (db) => (await db.introspection.getTables()).map((table) => table.name).sort())

  it('migrate:fresh refuses without --force, saying what it would drop', async () => {
    const refused = await app.fw(['migrate:fresh'], { NODE_ENV: 'production' })
    expect(refused.code).toBe(1)
    expect(refused.stderr).toBe(
      'migrate:fresh drops every table and view of the SQLite database database/database.sqlite (2: fw_migrations, posts) with their data, then runs every migration. This is production (NODE_ENV=production): run it again with --force if that is what you want.\n',
    )
    expect(await tables()).toEqual(['fw_migrations', 'fw_migrations_lock', 'posts'])

    const forced = await app.fw(['migrate:fresh', '--force'], { NODE_ENV: 'production' })
    expect(forced.code).toBe(0)
    expect(forced.stdout).toMatch(/^Dropping 2 tables and views: fw_migrations, posts\nMigrated  \d+_create_posts_table /)
  })

  it('migrate:reset refuses without --force when .env says APP_ENV=production, naming the migrations', async () => {
    app.write('.env', 'APP_ENV=production\n')
    const refused = await app.fw(['migrate:reset'])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(
      /^migrate:reset rolls back every migration of the SQLite database database\/database.sqlite \(1: \d+_create_posts_table\), dropping what they created\. This is production \(APP_ENV=production\): run it again with --force if that is what you want\.\n$/,
    )
    expect(await tables()).toContain('posts')
    expect((await app.fw(['migrate:reset', '--force'])).code).toBe(0)
    expect(await tables()).not.toContain('posts')
  })
})
