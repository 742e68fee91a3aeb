// fw make:factory over a table that database/schema.d.ts knows: a fake value for each column, in a file that type-checks
// in the app and creates rows; and factoryDefinition, which chooses the values, column by column.
import { execFile } from 'node:child_process'
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { factoryDefinition } from '../../../generators/make-factory/factoryDefinition.js'
import { createDatabase } from '../../src/database/createDatabase.js'
import { createFwApp, type FwApp } from '../support/fwApp.js'

const checkout = join(import.meta.dirname, '../../..')

/** The columns of the posts table below, as database/schema.d.ts types them. */
const POSTS = new Map([
  ['author_email', 'string | null'],
  ['body', 'string'],
  ['created_at', 'Generated<Timestamp>'],
  ['deleted_at', 'Timestamp | null'],
  ['id', 'Generated<number>'],
  ['published', 'boolean'],
  ['published_on', 'DateString | null'],
  ['price', 'Numeric'],
  ['rating', 'number'],
  ['settings', 'JsonValue'],
  ['title', 'string'],
  ['updated_at', 'Generated<Timestamp>'],
  ['user_id', 'number'],
  ['views', 'Generated<number>'],
  ['website', 'string | null'],
])

describe('factoryDefinition', () => {
  it('fakes each column by its name, else by its type; leaves out keys, defaults, timestamps and foreign keys, saying which', () => {
    expect(factoryDefinition(POSTS, new Map())).toEqual({
      context: '{ faker, sequence }',
      lines: [
        "  author_email: faker.internet.exampleEmail().toLowerCase().replace('@', `.${sequence}@`),",
        '  body: faker.lorem.paragraphs(2),',
        '  published: faker.datatype.boolean(),',
        '  published_on: faker.date.past().toISOString().slice(0, 10),',
        '  price: faker.number.float({ max: 1000, fractionDigits: 2 }),',
        '  rating: faker.number.int({ max: 1000 }),',
        '  settings: {},',
        '  title: faker.lorem.sentence(),',
        '  website: faker.internet.url(),',
        "  // user_id: the row it belongs to, set by .for(row) or .for(OtherFactory) through the model's belongsTo relation.",
        '  // The database fills id and views (a key, or a default): .state({ … }) sets them.',
      ],
    })
  })

  it("picks a PostgreSQL enum's labels, names the columns it has no value for, and uses no context it does not need", () => {
    const columns = new Map([
      ['id', 'GeneratedAlways<number>'],
      ['shape', 'unknown'],
      ['status', 'PostStatus'],
      ['tags', 'string[]'],
    ])
    expect(factoryDefinition(columns, new Map([['PostStatus', "'draft' | 'published'"]]))).toEqual({
      context: '{ faker }',
      lines: [
        "  status: faker.helpers.arrayElement(['draft', 'published'] as const),",
        '  tags: [],',
        '  // shape: of a type Fw makes no fake value for; give it one here.',
      ],
    })
    expect(factoryDefinition(new Map([['id', 'Generated<number>']]), new Map())).toEqual({
      context: '',
      lines: ['  // The database fills id (a key, or a default): .state({ … }) sets it.'],
    })
  })
})

describe('fw make:factory with database/schema.d.ts', () => {
  let app: FwApp
  beforeEach(() => {
    app = createFwApp()
  })
  afterEach(() => app.remove())

  /** The migration of a posts table with a column of each kind, and of the users it belongs to. */
  const MIGRATION = `import { id, timestamps, type Kysely } from 'fw-runtime'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('users').$call(id(db)).addColumn('name', 'varchar(255)', (c) => c.notNull()).execute()
  await db.schema
    .createTable('posts')
    .$call(id(db))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('title', 'varchar(255)', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('author_email', 'varchar(255)', (c) => c.unique())
    .addColumn('website', 'varchar(255)')
    .addColumn('published', 'boolean', (c) => c.notNull())
    .addColumn('published_at', 'timestamp')
    .addColumn('published_on', 'date')
    .addColumn('views', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('price', 'numeric(8, 2)', (c) => c.notNull())
    .addColumn('settings', 'json', (c) => c.notNull())
    .$call(timestamps())
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('posts').execute()
  await db.schema.dropTable('users').execute()
}
`

  it('writes a value for every column it can, a file that type-checks in the app and creates rows', async () => {
    app.write('App/Models/Post.ts', "import { Model } from 'fw-runtime'\n\nexport class Post extends Model('posts') {}\n")
    app.write('database/migrations/20250101000000_create_posts_table.ts', MIGRATION)
    expect((await app.fw(['migrate'])).code).toBe(0)

    const made = await app.fw(['make:factory', 'Post'])
    expect([made.code, made.stderr]).toEqual([0, ''])
    const written = app.read('database/factories/PostFactory.ts')
    expect(written).toContain(
      [
        'export const PostFactory = factory(() => Post, ({ faker, sequence }) => ({',
        "  author_email: faker.internet.exampleEmail().toLowerCase().replace('@', `.${sequence}@`),",
        '  body: faker.lorem.paragraphs(2),',
        '  price: faker.number.float({ max: 1000, fractionDigits: 2 }),',
        '  published: faker.datatype.boolean(),',
        '  published_at: faker.date.recent(),',
        '  published_on: faker.date.past().toISOString().slice(0, 10),',
        '  settings: {},',
        '  title: faker.lorem.sentence(),',
        '  website: faker.internet.url(),',
        "  // user_id: the row it belongs to, set by .for(row) or .for(OtherFactory) through the model's belongsTo relation.",
        '  // The database fills id and views (a key, or a default): .state({ … }) sets them.',
        '}))',
      ].join('\n'),
    )

    linkFaker(app)
    expect(await typeCheck(app)).toBe('')

    app.write(
      'database/seeders/PostSeeder.ts',
      [
        "import { db } from 'fw-runtime'",
        "import { PostFactory } from '#database/factories/PostFactory.js'",
        'export async function run(): Promise<void> {',
        "  const user = await db().insertInto('users').values({ name: 'Ada' }).returning('id').executeTakeFirstOrThrow()",
        '  await PostFactory.count(20).state({ user_id: user.id }).create()',
        '}',
        '',
      ].join('\n'),
    )
    const seeded = await app.fw(['db:seed'])
    expect([seeded.code, seeded.stderr]).toEqual([0, ''])
    const db = createDatabase(undefined, app.dir)
    try {
      const posts = await db.selectFrom('posts' as never).selectAll().execute() as Record<string, unknown>[]
      expect(posts).toHaveLength(20)
      expect(new Set(posts.map((post) => post.author_email)).size).toBe(20)
      expect(posts[0]).toMatchObject({ title: expect.any(String), body: expect.any(String), views: 0, website: expect.stringMatching(/^https?:\/\//) })
    } finally {
      await db.destroy()
    }
  })

  it("writes today's example line when database/schema.d.ts does not know the table", async () => {
    app.write('App/Models/Post.ts', "import { Model } from 'fw-runtime'\n\nexport class Post extends Model('posts') {}\n")
    expect((await app.fw(['make:factory', 'Post'])).code).toBe(0)
    expect(app.read('database/factories/PostFactory.ts')).toContain('factory(() => Post, ({ faker }) => ({\n  // title: faker.lorem.sentence(),\n}))')
  })

  it('finds the table the model names, whatever the model is called', async () => {
    app.write('App/Models/Blog/Article.ts', "import { Model } from 'fw-runtime'\n\nexport class Article extends Model('posts') {}\n")
    app.write('database/migrations/20250101000000_create_posts_table.ts', MIGRATION)
    expect((await app.fw(['migrate'])).code).toBe(0)
    expect((await app.fw(['make:factory', 'Blog/Article'])).code).toBe(0)
    expect(app.read('database/factories/Blog/ArticleFactory.ts')).toContain('  title: faker.lorem.sentence(),\n')
  })
})

/** @faker-js/faker as the app's own devDependency (the checkout's copy). */
function linkFaker(app: FwApp): void {
  mkdirSync(join(app.dir, 'node_modules/@faker-js'), { recursive: true })
  symlinkSync(join(checkout, 'node_modules/@faker-js/faker'), join(app.dir, 'node_modules/@faker-js/faker'), 'dir')
}

/** `tsc --noEmit` over the app's models and database files, with the starter's strict tsconfig: what it printed. */
async function typeCheck(app: FwApp): Promise<string> {
  const config = JSON.parse(readFileSync(join(checkout, 'template/api/tsconfig.json'), 'utf8')) as Record<string, Record<string, unknown>>
  config.compilerOptions!.typeRoots = [join(checkout, 'node_modules/@types')]
  writeFileSync(join(app.dir, 'tsconfig.json'), JSON.stringify({ ...config, include: ['App', 'database'] }))
  const tsc = join(checkout, 'node_modules/typescript/bin/tsc')
  const result = await promisify(execFile)(process.execPath, [tsc, '--noEmit', '-p', '.'], { cwd: app.dir }).catch((error: { stdout: string }) => error)
  return result.stdout
}
