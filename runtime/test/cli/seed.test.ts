import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createDatabase } from '../../src/database/createDatabase.js'
import { createFwApp, type FwApp } from '../support/fwApp.js'
import { startPostgres, type TestPostgres } from '../support/postgres.js'

let app: FwApp
beforeEach(() => {
  app = createFwApp()
  app.write(
    'database/migrations/20260101000000_create_posts_table.ts',
    [
      "import { id, type Kysely } from 'fw-runtime'",
      'export async function up(db: Kysely<any>): Promise<void> {',
      "  await db.schema.createTable('posts').$call(id(db)).addColumn('title', 'varchar(255)', (column) => column.notNull().unique()).execute()",
      '}',
      '',
    ].join('\n'),
  )
})
afterEach(() => app.remove())

async function titles(url?: string): Promise<string[]> {
  const db = createDatabase(url, app.dir)
  try {
    return (await db.selectFrom('posts' as never).select('title' as never).orderBy('title' as never).execute()).map((row) => (row as { title: string }).title)
  } finally {
    await db.destroy()
  }
}

function seeder(titles: string[]): string {
  return [
    "import type { Kysely } from 'fw-runtime'",
    'export async function run(db: Kysely<any>): Promise<void> {',
    ...titles.map((title) => `  await db.insertInto('posts').values({ title: '${title}' }).execute()`),
    '}',
    '',
  ].join('\n')
}

describe('fw make:seeder and fw db:seed', () => {
  it('writes a seeder that db:seed runs (an empty one changes nothing)', async () => {
    const made = await app.fw(['make:seeder', 'PostSeeder'])
    expect(made).toMatchObject({ code: 0, stdout: 'Created database/seeders/PostSeeder.ts\n' })
    expect(app.read('database/seeders/PostSeeder.ts')).toContain('export async function run(db: Kysely<any>): Promise<void> {')
    expect((await app.fw(['migrate'])).code).toBe(0)
    const seeded = await app.fw(['db:seed'])
    expect(seeded.code).toBe(0)
    expect(seeded.stdout).toMatch(/^Seeded {2}PostSeeder {2}\(\d+ ms\)\n$/)
    expect(await titles()).toEqual([])
  })

  it('runs every seeder in name order, or DatabaseSeeder alone, or the one --class names', async () => {
    await app.fw(['migrate'])
    app.write('database/seeders/A.ts', seeder(['a']))
    app.write('database/seeders/B.ts', seeder(['b']))
    expect((await app.fw(['db:seed'])).stdout).toMatch(/^Seeded {2}A .*\nSeeded {2}B /)
    expect(await titles()).toEqual(['a', 'b'])

    app.write('database/seeders/C.ts', seeder(['c']))
    expect((await app.fw(['db:seed', '--class=C'])).code).toBe(0)
    expect(await titles()).toEqual(['a', 'b', 'c'])

    app.write('database/seeders/DatabaseSeeder.ts', seeder(['main']))
    expect((await app.fw(['db:seed'])).stdout).toMatch(/^Seeded {2}DatabaseSeeder .*\n$/)
    expect(await titles()).toEqual(['a', 'b', 'c', 'main'])
  })

  it('runs a seeder that imports application code by #app/, from the TypeScript sources (not dist/)', async () => {
    await app.fw(['migrate'])
    app.write('App/Seeds/titles.ts', "export const titles: string[] = ['from the sources']\n")
    app.write('dist/App/Seeds/titles.js', "throw new Error('the build in dist/ was loaded')\n")
    app.write(
      'database/seeders/TitleSeeder.ts',
      [
        "import type { Kysely } from 'fw-runtime'",
        "import { titles } from '#app/Seeds/titles.js'",
        'export async function run(db: Kysely<any>): Promise<void> {',
        "  for (const title of titles) await db.insertInto('posts').values({ title }).execute()",
        '}',
        '',
      ].join('\n'),
    )

    const seeded = await app.fw(['db:seed'])

    expect([seeded.code, seeded.stderr]).toEqual([0, ''])
    expect(await titles()).toEqual(['from the sources'])
  })

  it('writes nothing of a seeder that fails, and says which in one line', async () => {
    await app.fw(['migrate'])
    app.write('database/seeders/Broken.ts', seeder(['first', 'first']))
    const result = await app.fw(['db:seed'])
    expect(result.code).toBe(1)
    expect(result.stderr.trim().split('\n')).toHaveLength(1)
    expect(result.stderr).toMatch(/^Seeding failed: Broken: .*UNIQUE.* \(nothing of it was written\)\n$/)
    expect(await titles()).toEqual([])
  })

  it('migrate:fresh --seed rebuilds the tables and runs the seeders', async () => {
    await app.fw(['migrate'])
    app.write('database/seeders/DatabaseSeeder.ts', seeder(['seeded']))
    await app.fw(['db:seed'])
    const fresh = await app.fw(['migrate:fresh', '--seed'])
    expect(fresh.code).toBe(0)
    expect(fresh.stdout).toMatch(/^Migrated {2}20260101000000_create_posts_table .*\nSeeded {2}DatabaseSeeder /)
    expect(await titles()).toEqual(['seeded'])
  })

  it('refuses an unknown --class, and production without --force', async () => {
    const unknown = await app.fw(['db:seed', '--class=Missing'])
    expect([unknown.code, unknown.stderr]).toEqual([1, 'No seeder named Missing in database/seeders (make one with fw make:seeder Missing)\n'])
    await app.fw(['migrate'])
    app.write('database/seeders/A.ts', seeder(['a']))
    const production = await app.fw(['db:seed'], { NODE_ENV: 'production' })
    expect([production.code, production.stderr]).toEqual([1, 'fw db:seed writes rows into the production database: run it again with --force if you mean it\n'])
    expect(await titles()).toEqual([])
    expect((await app.fw(['db:seed', '--force'], { APP_ENV: 'production' })).code).toBe(0)
    expect(await titles()).toEqual(['a'])
  })
})

describe('fw make:middleware and fw make:test', () => {
  it('make:middleware writes a camelCase middleware and its test', async () => {
    const result = await app.fw(['make:middleware', 'EnsureTeamMember'])
    expect(result).toMatchObject({
      code: 0,
      stdout: 'Created App/Middleware/ensureTeamMember.ts\nCreated tests/Middleware/ensureTeamMember.test.ts\n',
    })
    expect(app.read('App/Middleware/ensureTeamMember.ts')).toContain('export const ensureTeamMember: Middleware = async (request, next) => {')
    expect(app.read('tests/Middleware/ensureTeamMember.test.ts')).toContain("import { ensureTeamMember } from '#app/Middleware/ensureTeamMember.js'")
    expect((await app.fw(['make:middleware', 'not-a-name'])).code).toBe(1)
  })

  it('make:test writes a test that requests the app in process, in subfolders too', async () => {
    expect((await app.fw(['make:test', 'Feature/CheckoutTest'])).stdout).toBe('Created tests/Feature/CheckoutTest.test.ts\n')
    const test = app.read('tests/Feature/CheckoutTest.test.ts')
    expect(test).toContain("import { createClient } from '../app.js'")
    expect(test).toContain('beforeEach(refreshDatabase)\n')
    expect(test).toContain("describe('CheckoutTest', () => {")
    expect((await app.fw(['make:test', 'HomeTest'])).code).toBe(0)
    expect(app.read('tests/HomeTest.test.ts')).toContain("import { createClient } from './app.js'")
    const again = await app.fw(['make:test', 'Feature/CheckoutTest'])
    expect([again.code, again.stderr]).toEqual([1, 'tests/Feature/CheckoutTest.test.ts already exists; use --force to overwrite it\n'])
  })
})

/** A seeder that writes through a model of the application, then perhaps fails. */
function modelSeeder(title: string, fail: boolean): string {
  return [
    "import { Post } from '#app/Models/Post.js'",
    'export async function run(): Promise<void> {',
    `  await Post.create({ title: '${title}' })`,
    ...(fail ? ["  throw new Error('the seeder failed after the model wrote')"] : []),
    '}',
    '',
  ].join('\n')
}

let postgres: TestPostgres | undefined
afterAll(() => postgres?.stop())

const databases = [
  { name: 'SQLite', url: async () => undefined },
  { name: 'PostgreSQL', url: async () => (postgres ??= await startPostgres()).url },
]

describe.each(databases)('a seeder that uses a model, on $name', ({ url }) => {
  beforeEach(() => app.write('App/Models/Post.ts', "import { Model } from 'fw-runtime'\n\nexport class Post extends Model('posts', { timestamps: false }) {}\n"))

  const fw = async (args: string[]) => app.fw(args, { DATABASE_URL: await url() })

  it("writes through the seeder's own transaction: no second connection waits for SQLite's lock", async () => {
    await fw(['migrate'])
    app.write('database/seeders/PostSeeder.ts', modelSeeder('through the model', false))
    const seeded = await fw(['db:seed'])
    expect([seeded.code, seeded.stderr]).toEqual([0, ''])
    expect(await titles(await url())).toEqual(['through the model'])
  })

  it('leaves nothing of what the model wrote when the seeder fails', async () => {
    await fw(['migrate'])
    await fw(['migrate:fresh'])
    app.write('database/seeders/PostSeeder.ts', modelSeeder('rolled back', true))
    const seeded = await fw(['db:seed'])
    expect(seeded.code).toBe(1)
    expect(seeded.stderr).toBe('Seeding failed: PostSeeder: the seeder failed after the model wrote (nothing of it was written)\n')
    expect(await titles(await url())).toEqual([])
  })
})
