// The README's "Everyday tools" examples, taken from README.md as they are written, in a new application:
// routes from its blocks, its middleware in bootstrap/app.ts, its test-client and database blocks as tests (the latter
// over the Post model of `fw make:model Post -m`), then the server answering as the README says. And the "Models"
// block, type-checked with the starter's tsconfig (noUncheckedIndexedAccess among it) over the tables it names.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { installedApp, type InstalledApp } from './support/installedApp.js'
import { checkoutRoot, type RunningApp } from './support/process.js'

/** The ```ts blocks of one README section, in order. */
function readmeBlocks(heading: string): string[] {
  const readme = readFileSync(join(checkoutRoot, 'README.md'), 'utf8')
  const start = readme.indexOf(`\n${heading}\n`)
  const end = readme.slice(start + heading.length + 2).search(/\n##+ /)
  const section = readme.slice(start, end === -1 ? undefined : start + heading.length + 2 + end)
  return [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!)
}

type Block = { imports: string; body: string }

/** A block split into its import lines and the rest. */
function split(block: string): Block {
  const lines = block.split('\n')
  return {
    imports: lines.filter((line) => line.startsWith('import ')).join('\n'),
    body: lines.filter((line) => !line.startsWith('import ')).join('\n'),
  }
}

let app: InstalledApp
let server: RunningApp
const blocks = readmeBlocks('### Everyday tools')
const [models] = readmeBlocks('#### Models').map(split)

/** The tables the Models block names, beside the posts of `fw make:model Post -m` (id and timestamps). */
const MODELS_MIGRATION = `import { id, timestamps, type Kysely } from 'fw-runtime'

export async function up(db: Kysely<any>): Promise<void> {
  // SQLite alters one column a statement.
  await db.schema.alterTable('posts').addColumn('author_id', 'integer').execute()
  await db.schema.alterTable('posts').addColumn('title', 'varchar(255)').execute()
  await db.schema.alterTable('posts').addColumn('body', 'text').execute()
  await db.schema.alterTable('posts').addColumn('published', 'boolean', (column) => column.notNull().defaultTo(false)).execute()
  await db.schema.alterTable('posts').addColumn('deleted_at', 'timestamp').execute()
  await db.schema.createTable('users').$call(id(db)).addColumn('name', 'varchar(255)', (c) => c.notNull()).addColumn('email', 'varchar(255)', (c) => c.notNull())
    .addColumn('password_hash', 'varchar(255)', (c) => c.notNull()).$call(timestamps()).execute()
  await db.schema.createTable('profiles').$call(id(db)).addColumn('user_id', 'integer', (c) => c.notNull()).execute()
  await db.schema.createTable('comments').$call(id(db)).addColumn('post_id', 'integer', (c) => c.notNull()).addColumn('author_id', 'integer')
    .addColumn('approved', 'boolean', (c) => c.notNull()).$call(timestamps()).execute()
  await db.schema.createTable('tags').$call(id(db)).addColumn('name', 'varchar(255)', (c) => c.notNull()).execute()
  await db.schema.createTable('post_tag').addColumn('post_id', 'integer', (c) => c.notNull()).addColumn('tag_id', 'integer', (c) => c.notNull()).execute()
}

export async function down(): Promise<void> {}
`

beforeAll(async () => {
  expect(blocks).toHaveLength(7)
  // The rules that ask the database (unique, exists) and the row and query assertions are runtime/test's
  // (validation/, testing/): this file runs the other five as they are written.
  const [validation, , sessions, middleware, testing, database] = blocks.map(split) as [Block, Block, Block, Block, Block, Block, Block]
  // A new api app: it has zod already, and its own POST /api/tasks, so the README's route goes under /readme.
  app = await installedApp({ template: 'api' })
  writeFileSync(
    join(app.dir, 'routes/examples.ts'),
    [
      "import { html, Response, Route } from 'fw-runtime'",
      validation.imports,
      sessions.imports,
      `Route.group({ prefix: '/readme' }, () => {\n${validation.body}\n})`,
      sessions.body,
    ].join('\n'),
  )
  writeFileSync(join(app.dir, 'routes/web.ts'), `${readFileSync(join(app.dir, 'routes/web.ts'), 'utf8')}import './examples.js'\n`)
  // The middleware block goes where the README says: configure() in bootstrap/app.ts.
  const bootstrap = readFileSync(join(app.dir, 'bootstrap/app.ts'), 'utf8')
  const configure = /export function configure\(container: Container, router: Router\): void \{\n/
  expect(bootstrap).toMatch(configure)
  writeFileSync(join(app.dir, 'bootstrap/app.ts'), middleware.imports + '\n' + bootstrap.replace(configure, (line) => `${line}${middleware.body}\n`))
  mkdirSync(join(app.dir, 'public/css'), { recursive: true })
  writeFileSync(join(app.dir, 'public/css/app.css'), 'body { margin: 0 }\n')
  writeFileSync(
    join(app.dir, 'tests/readme.test.ts'),
    `import { expect, it } from 'vitest'\n${testing.imports}\n\nit('runs the README test-client example', async () => {\n${testing.body}\n})\n`,
  )
  // The database block tests the Post model a user makes with `fw make:model Post -m`; a test before its own leaves a
  // post behind, which refreshDatabase must empty.
  await app.runOk('npx', ['fw', 'make:model', 'Post', '-m'])
  // The Models block as a module of the app, with the models and the route parameter it names but does not declare.
  writeFileSync(join(app.dir, 'database/migrations/29991231000000_readme_models.ts'), MODELS_MIGRATION)
  writeFileSync(
    join(app.dir, 'App/Models/readme.ts'),
    [
      models!.imports,
      'declare const id: string',
      models!.body.replace(/^class /gm, 'export class '),
      "export class Comment extends Model('comments') {\n  static author = this.belongsTo(() => User)\n}",
      "export class Tag extends Model('tags', { timestamps: false }) {}",
      "export class Profile extends Model('profiles', { timestamps: false }) {}",
      '',
    ].join('\n'),
  )
  await app.runOk('npx', ['fw', 'migrate'])
  const leftBehind = "it('leaves a post behind', async () => {\n  await Post.create({})\n  expect(await Post.count()).toBe(1)\n})\n"
  expect(database.body).toContain('beforeEach(refreshDatabase)\n')
  writeFileSync(
    join(app.dir, 'tests/readme-database.test.ts'),
    `${database.imports}\n${database.body.replace('beforeEach(refreshDatabase)\n', (line) => `${line}\n${leftBehind}`)}`,
  )
  server = await app.start()
})
afterAll(() => server?.stop())

describe('README "Everyday tools", as written', () => {
  it('type-checks (the Models block among it), and its test-client and database examples pass as tests of the app', async () => {
    expect(models!.body).toContain('posts[0]?.comments[0]?.author?.name')
    expect(models!.body).toContain('Post.findOrFail(id)')
    await app.runOk('npx', ['tsc', '--noEmit'])
    const tests = stripVTControlCharacters((await app.runOk('npx', ['vitest', 'run', 'tests/readme.test.ts', 'tests/readme-database.test.ts'])).stdout)
    expect(tests).toMatch(/Tests +3 passed/)
  })

  it('validation: the 422 body the README shows, from its example and from the api starter\'s own /api/tasks', async () => {
    const comment = /→ 422 (\{.*\})/.exec(blocks[0]!)![1]!
    for (const path of ['/readme/api/tasks', '/api/tasks']) {
      const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"title": 42}' })
      expect([path, response.status, await response.text()]).toEqual([path, 422, comment])
    }
  })

  it('sessions and CSRF: the form round trip, and 419 without the token', async () => {
    const page = await fetch(`${server.url}/profile`)
    const cookie = page.headers.getSetCookie()[0]!.split(';')[0]!
    const token = /name="_token" value="([^"]+)"/.exec(await page.text())![1]!
    const saved = await fetch(`${server.url}/profile`, {
      method: 'POST',
      redirect: 'manual',
      headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _token: token, name: 'Ada' }).toString(),
    })
    expect([saved.status, saved.headers.get('location')]).toEqual([303, '/profile'])
    const next = saved.headers.getSetCookie()[0]!.split(';')[0]!
    expect(await (await fetch(`${server.url}/profile`, { headers: { Cookie: next } })).text()).toContain('<p>Saved Ada</p>')
    const forged = await fetch(`${server.url}/profile`, { method: 'POST', headers: { Cookie: next, 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'name=Eve' })
    expect(forged.status).toBe(419)
  })

  it('static files and security headers by default, CORS from bootstrap/app.ts', async () => {
    const css = await fetch(`${server.url}/css/app.css`)
    expect([css.status, css.headers.get('content-type'), await css.text()]).toEqual([200, 'text/css; charset=utf-8', 'body { margin: 0 }\n'])
    expect((await fetch(`${server.url}/index.ts`)).status).toBe(404)
    const preflight = await fetch(`${server.url}/api/tasks`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://app.example.com', 'Access-Control-Request-Method': 'POST' },
    })
    expect([preflight.status, preflight.headers.get('access-control-allow-origin'), preflight.headers.get('access-control-allow-credentials')]).toEqual([
      204,
      'https://app.example.com',
      'true',
    ])
    const page = await fetch(`${server.url}/profile`)
    expect([page.headers.get('x-frame-options'), page.headers.get('content-security-policy')]).toEqual(['DENY', "frame-ancestors 'none'"])
  })
})
