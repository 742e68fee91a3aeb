import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createDatabase } from '../../src/database/createDatabase.js'
import { createFwApp, type FwApp } from '../support/fwApp.js'
import { startMariadb, type TestMariadb } from '../support/mariadb.js'
import { startPostgres, type TestPostgres } from '../support/postgres.js'

const CREATE_POSTS = /^\d{14}_create_posts_table$/

/** Every table in the app's database, to check what a command really did. */
async function tablesOf(app: FwApp, url?: string): Promise<string[]> {
  const db = createDatabase(url, app.dir)
  try {
    return (await db.introspection.getTables()).map((table) => table.name).sort()
  } finally {
    await db.destroy()
  }
}

function migrationNames(app: FwApp): string[] {
  return readdirSync(join(app.dir, 'database/migrations'))
    .map((file) => file.replace(/\.ts$/, ''))
    .sort()
}

/** The sequence the issue asks for on both databases: make:model -m, migrate, status, rollback, status. */
function migrateStatusRollback(getUrl: () => string | undefined) {
  let app: FwApp
  beforeEach(() => {
    app = createFwApp()
  })
  afterEach(async () => {
    if (getUrl()) await app.fw(['migrate:fresh'], env()).then(() => app.fw(['migrate:reset'], env()))
    app.remove()
  })
  const env = (): NodeJS.ProcessEnv => (getUrl() ? { DATABASE_URL: getUrl() } : {})

  it('migrates a generated model, shows the status, rolls the batch back', async () => {
    expect((await app.fw(['make:model', 'Post', '-m'])).code).toBe(0)
    const [name] = migrationNames(app)
    expect(name).toMatch(CREATE_POSTS)

    const migrated = await app.fw(['migrate'], env())
    expect(migrated.stderr).toBe('')
    expect(migrated.code).toBe(0)
    // In development the types of the tables follow: database/schema.d.ts (test/cli/db-types.test.ts).
    expect(migrated.stdout).toMatch(new RegExp(`^Migrated  ${name}  \\(\\d+ ms\\)\\nWrote database/schema.d.ts: the types of 1 table.\\n$`))
    expect(await tablesOf(app, getUrl())).toContain('posts')

    const status = await app.fw(['migrate:status'], env())
    expect(status.code).toBe(0)
    expect(status.stdout.split('\n').slice(0, 3).map((line) => line.split(/ {2,}/))).toEqual([
      ['Migration', 'Batch', 'Status'],
      [expect.stringMatching(/^-+$/), '-----', '------'],
      [name, '1', 'Ran'],
    ])

    const rolledBack = await app.fw(['migrate:rollback'], env())
    expect(rolledBack.code).toBe(0)
    expect(rolledBack.stdout).toMatch(new RegExp(`^Rolled back  ${name}  \\(\\d+ ms\\)\\nUpdated database/schema.d.ts: dropped table posts.\\n$`))
    expect(await tablesOf(app, getUrl())).not.toContain('posts')

    const after = await app.fw(['migrate:status'], env())
    expect(after.stdout.split('\n')[2]!.split(/ {2,}/)).toEqual([name, 'Pending'])
  })

  it('runs the stubs unchanged, the model works on the table, and batches undo exactly the last migrate', async () => {
    await app.fw(['make:model', 'Post', '-m'])
    expect((await app.fw(['migrate'], env())).code).toBe(0)
    await app.fw(['make:migration', 'add_title_to_posts_table'])
    await app.fw(['make:migration', 'create_comments_table'])
    const second = await app.fw(['migrate'], env())
    expect(second.code).toBe(0)
    expect(second.stdout.trim().split('\n')).toEqual([
      expect.stringMatching(/^Migrated  \d+_add_title_to_posts_table /),
      expect.stringMatching(/^Migrated  \d+_create_comments_table /),
      'Updated database/schema.d.ts: new table comments, new column posts.title.',
    ])

    const status = await app.fw(['migrate:status'], env())
    const rows = status.stdout.trim().split('\n').slice(2).map((line) => line.split(/ {2,}/).slice(1))
    expect(rows).toEqual([['1', 'Ran'], ['2', 'Ran'], ['2', 'Ran']])

    // The generated model over the migrated table, through the app's own TypeScript.
    app.write(
      'scripts/use-model.ts',
      [
        "import { Post } from '../App/Models/Post.js'",
        'const created = await Post.create({})',
        'const found = await Post.find(created.id)',
        'const page = await Post.paginate(1, 10)',
        'console.log(JSON.stringify({ id: created.id, found: found?.id, total: page.meta.total, stamp: Object.prototype.toString.call(created.created_at) }))',
        'process.exit(0)',
      ].join('\n'),
    )
    const output = execFileSync(process.execPath, ['--import', import.meta.resolve('tsx'), 'scripts/use-model.ts'], {
      cwd: app.dir,
      env: { ...process.env, DATABASE_URL: getUrl() ?? '' },
    }).toString()
    // A timestamp comes back as a Date on both databases.
    expect(JSON.parse(output)).toEqual({ id: 1, found: 1, total: 1, stamp: '[object Date]' })

    const rollback = await app.fw(['migrate:rollback'], env())
    expect(rollback.stdout).toMatch(/^Rolled back  \d+_create_comments_table .*\nRolled back  \d+_add_title_to_posts_table /)
    const tables = await tablesOf(app, getUrl())
    expect(tables).toContain('posts')
    expect(tables).not.toContain('comments')

    expect((await app.fw(['migrate:rollback'], env())).stdout).toMatch(/^Rolled back  \d+_create_posts_table /)
    expect((await app.fw(['migrate:rollback'], env())).stdout).toBe('Nothing to roll back.\n')
  })

  it('keeps the migrations before a failing one, and leaves nothing of the failing one', async () => {
    await app.fw(['make:migration', 'create_first_table'])
    await app.fw(['make:migration', 'create_broken_table'])
    await app.fw(['make:migration', 'create_never_table'])
    const broken = readdirSync(join(app.dir, 'database/migrations')).find((file) => file.includes('broken'))!
    writeFileSync(
      join(app.dir, 'database/migrations', broken),
      [
        "import { id, type Kysely } from 'fw-runtime'",
        'export async function up(db: Kysely<any>): Promise<void> {',
        "  await db.schema.createTable('broken').$call(id(db)).execute()",
        "  await db.insertInto('broken').values({ id: 1 }).execute()",
        "  await db.insertInto('no_such_table').values({ id: 1 }).execute()",
        '}',
      ].join('\n'),
    )

    const result = await app.fw(['migrate'], env())

    expect(result.code).toBe(1)
    expect(result.stdout).toMatch(/^Migrated  \d+_create_first_table  \(\d+ ms\)\n$/)
    expect(result.stderr).toMatch(/^Migration failed: \d+_create_broken_table: .*no_such_table.*\n$/)
    // The cause's stack only with --verbose, never because of APP_DEBUG.
    const debug = await app.fw(['migrate'], { ...env(), APP_DEBUG: 'true' })
    expect(debug.stderr.trim().split('\n')).toHaveLength(1)
    const verbose = await app.fw(['migrate', '--verbose'], env())
    expect(verbose.stderr).toMatch(/^Migration failed: \d+_create_broken_table: .*no_such_table.*\n\S*error: .*\n\s+at /i)
    const tables = await tablesOf(app, getUrl())
    expect(tables).toContain('first')
    expect(tables).not.toContain('broken')
    expect(tables).not.toContain('never')
    const status = (await app.fw(['migrate:status'], env())).stdout
    expect(status).toMatch(/create_first_table +1 +Ran/)
    expect(status).toMatch(/create_broken_table +Pending/)
    expect(status).toMatch(/create_never_table +Pending/)
  })

  it('refuses to roll back a migration without down(), and rolls back nothing of its batch', async () => {
    await app.fw(['make:migration', 'create_kept_table'])
    await app.fw(['make:migration', 'create_oneway_table'])
    const oneway = readdirSync(join(app.dir, 'database/migrations')).find((file) => file.includes('oneway'))!
    writeFileSync(
      join(app.dir, 'database/migrations', oneway),
      "import { id, type Kysely } from 'fw-runtime'\nexport async function up(db: Kysely<any>): Promise<void> {\n  await db.schema.createTable('oneway').$call(id(db)).execute()\n}\n",
    )
    expect((await app.fw(['migrate'], env())).code).toBe(0)

    const result = await app.fw(['migrate:rollback'], env())

    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/^Migration failed: \d+_create_oneway_table has no down\(\) function, so it cannot be rolled back\n$/)
    expect(await tablesOf(app, getUrl())).toEqual(expect.arrayContaining(['kept', 'oneway']))
  })

  it('rolls back --step=N migrations across batches, resets and freshens', async () => {
    for (const table of ['a', 'b', 'c']) {
      await app.fw(['make:migration', `create_${table}_table`])
      await app.fw(['migrate'], env())
    }
    const step = await app.fw(['migrate:rollback', '--step=2'], env())
    expect(step.stdout).toMatch(/^Rolled back  \d+_create_c_table .*\nRolled back  \d+_create_b_table .*\nUpdated database\/schema\.d\.ts: dropped table b, dropped table c\.\n$/)
    expect((await app.fw(['migrate:rollback', '--step=0'], env())).stderr).toBe(
      '--step must be a whole number of migrations, 1 or more (got "0")\n',
    )

    const fresh = await app.fw(['migrate:fresh'], env())
    expect(fresh.code).toBe(0)
    expect(fresh.stdout.trim().split('\n')).toHaveLength(4)
    // (On PostgreSQL, tables an earlier test left behind may be dropped too.)
    expect(fresh.stdout).toMatch(/\nUpdated database\/schema\.d\.ts: new table b, new table c[.,]/)
    expect((await app.fw(['migrate:status'], env())).stdout).toMatch(/create_a_table +1 +Ran\n.*create_b_table +1 +Ran\n.*create_c_table +1 +Ran/)

    const reset = await app.fw(['migrate:reset'], env())
    expect(reset.stdout.trim().split('\n')).toHaveLength(4)
    const left = await tablesOf(app, getUrl())
    expect(left.filter((table) => ['a', 'b', 'c'].includes(table))).toEqual([])
  })

  it('never lets two fw migrate at once apply the same migration', async () => {
    await app.fw(['make:migration', 'create_slow_table'])
    const slow = readdirSync(join(app.dir, 'database/migrations'))[0]!
    writeFileSync(
      join(app.dir, 'database/migrations', slow),
      [
        "import { id, type Kysely } from 'fw-runtime'",
        "import { setTimeout } from 'node:timers/promises'",
        'export async function up(db: Kysely<any>): Promise<void> {',
        "  await db.schema.createTable('slow').$call(id(db)).execute()",
        '  await setTimeout(700)',
        '}',
        'export async function down(db: Kysely<any>): Promise<void> {',
        "  await db.schema.dropTable('slow').execute()",
        '}',
      ].join('\n'),
    )

    const [one, two] = await Promise.all([app.fw(['migrate'], env()), app.fw(['migrate'], env())])

    expect([one.code, two.code]).toEqual([0, 0])
    const outputs = [one.stdout, two.stdout].sort()
    expect(outputs[0]).toMatch(/^Migrated  \d+_create_slow_table /)
    expect(outputs[1]).toBe('Nothing to migrate.\n')
    expect((await app.fw(['migrate:status'], env())).stdout).toMatch(/create_slow_table +1 +Ran/)
  })
}

describe('fw migrate on SQLite', () => {
  migrateStatusRollback(() => undefined)

  it('creates database/database.sqlite on first use, and reads DATABASE_URL from .env', async () => {
    const app = createFwApp()
    try {
      expect(existsSync(join(app.dir, 'database/database.sqlite'))).toBe(false)
      expect((await app.fw(['migrate:status'])).stdout).toBe('No migrations in database/migrations.\n')
      expect(existsSync(join(app.dir, 'database/database.sqlite'))).toBe(true)

      app.write('.env', 'DATABASE_URL=sqlite:storage/other.sqlite\n')
      await app.fw(['make:migration', 'create_things_table'])
      expect((await app.fw(['migrate'])).code).toBe(0)
      expect(await tablesOf(app, 'sqlite:storage/other.sqlite')).toContain('things')
    } finally {
      app.remove()
    }
  })

  it('says so in one line when DATABASE_URL names a database it does not support', async () => {
    const app = createFwApp()
    try {
      const result = await app.fw(['migrate'], { DATABASE_URL: 'mongodb://localhost/app' })
      expect(result.code).toBe(1)
      expect(result.stderr).toBe(
        'fw migrate failed: Unsupported DATABASE_URL "mongodb://localhost/app": use postgres://user:password@host:port/name, mysql://user:password@host:port/name or sqlite:path/to/file.sqlite\n',
      )
    } finally {
      app.remove()
    }
  })
})

describe('fw migrate on PostgreSQL', () => {
  let server: TestPostgres
  beforeAll(async () => {
    server = await startPostgres()
  }, 60_000)
  afterAll(() => server?.stop())

  migrateStatusRollback(() => server.url)
})

// Not migrateStatusRollback's whole list yet: models write with `returning`, which MySQL lacks, and MySQL commits each
// schema statement at once, so a failed migration's tables stay.
describe('fw migrate on MariaDB', () => {
  let server: TestMariadb
  let app: FwApp
  beforeAll(async () => {
    server = await startMariadb()
  }, 60_000)
  afterAll(() => server?.stop())
  beforeEach(() => {
    app = createFwApp()
  })
  afterEach(() => app.remove())
  const env = (): NodeJS.ProcessEnv => ({ DATABASE_URL: server.url })

  it('migrates a generated model, writes its types, shows the status, rolls the batch back, and freshens', async () => {
    expect((await app.fw(['make:model', 'Post', '-m'])).code).toBe(0)
    const [name] = migrationNames(app)

    const migrated = await app.fw(['migrate'], env())
    expect(migrated.stderr).toBe('')
    expect(migrated.stdout).toMatch(new RegExp(`^Migrated  ${name}  \\(\\d+ ms\\)\\nWrote database/schema.d.ts: the types of 1 table.\\n$`))
    expect(app.read('database/schema.d.ts')).toContain('export interface Posts {\n  created_at: Generated<Timestamp>\n  id: Generated<number>\n  updated_at: Generated<Timestamp>\n}')
    expect(await tablesOf(app, server.url)).toEqual(['fw_migrations', 'posts'])
    expect((await app.fw(['migrate:status'], env())).stdout.split('\n')[2]!.split(/ {2,}/)).toEqual([name, '1', 'Ran'])

    const rolledBack = await app.fw(['migrate:rollback'], env())
    expect(rolledBack.stdout).toMatch(new RegExp(`^Rolled back  ${name}  \\(\\d+ ms\\)\\nUpdated database/schema.d.ts: dropped table posts.\\n$`))
    expect(await tablesOf(app, server.url)).toEqual(['fw_migrations'])

    const fresh = await app.fw(['migrate:fresh'], env())
    expect(fresh.code).toBe(0)
    expect(await tablesOf(app, server.url)).toEqual(['fw_migrations', 'posts'])
    await app.fw(['migrate:reset'], env())
  })

  it('never lets two fw migrate at once apply the same migration', async () => {
    await app.fw(['make:migration', 'create_slow_table'])
    const slow = migrationNames(app)[0]!
    writeFileSync(
      join(app.dir, 'database/migrations', `${slow}.ts`),
      [
        "import { id, type Kysely } from 'fw-runtime'",
        "import { setTimeout } from 'node:timers/promises'",
        'export async function up(db: Kysely<any>): Promise<void> {',
        "  await db.schema.createTable('slow').$call(id(db)).execute()",
        '  await setTimeout(700)',
        '}',
        'export async function down(db: Kysely<any>): Promise<void> {',
        "  await db.schema.dropTable('slow').execute()",
        '}',
      ].join('\n'),
    )
    const [one, two] = await Promise.all([app.fw(['migrate'], env()), app.fw(['migrate'], env())])
    expect([one.code, two.code]).toEqual([0, 0])
    const outputs = [one.stdout, two.stdout].sort()
    expect(outputs[0]).toMatch(/^Migrated  \d+_create_slow_table /)
    expect(outputs[1]).toBe('Nothing to migrate.\n')
    await app.fw(['migrate:reset'], env())
  })
})
