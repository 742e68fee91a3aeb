import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { cleanEnv, createFwApp, runFw, type FwApp } from '../support/fwApp.js'

let app: FwApp
beforeEach(() => {
  app = createFwApp()
})
afterEach(() => app.remove())

const read = (path: string) => app.read(path)
const files = (folder: string) => app.files(folder)

describe('fw make:controller', () => {
  it('writes the controller and its test', async () => {
    const result = await app.fw(['make:controller', 'UserController'])

    expect(result).toMatchObject({ code: 0, stderr: '' })
    expect(result.stdout).toBe('Created App/Controllers/UserController.ts\nCreated tests/Controllers/UserController.test.ts\n')
    const controller = read('App/Controllers/UserController.ts')
    expect(controller).toContain('export class UserController {')
    expect(controller).toContain("index(): Response {\n    return Response.json({ message: 'Hello from UserController' })")
    expect(controller).not.toMatch(/show|store|update|destroy|\{\{/)
    const test = read('tests/Controllers/UserController.test.ts')
    expect(test).toContain("import { UserController } from '#app/Controllers/UserController.js'")
    expect(test).toContain("router.get('/users', [UserController, 'index'])")
  })

  it('puts Admin/UserController in a subfolder, its test importing it by #app/ (no ../ path to count)', async () => {
    expect((await app.fw(['make:controller', 'Admin/UserController'])).code).toBe(0)

    expect(read('App/Controllers/Admin/UserController.ts')).toContain('export class UserController {')
    expect(read('tests/Controllers/Admin/UserController.test.ts')).toContain(
      "import { UserController } from '#app/Controllers/Admin/UserController.js'",
    )
    expect(read('tests/Controllers/Admin/UserController.test.ts')).toContain("router.get('/admin/users'")
  })

  it('adds the five resource actions with --resource', async () => {
    expect((await app.fw(['make:controller', 'PhotoController', '--resource'])).code).toBe(0)

    const controller = read('App/Controllers/PhotoController.ts')
    for (const action of ['index()', 'show(_request: Request, id: string)', 'store(request: Request)', 'update(request: Request, id: string)', 'destroy(_request: Request, id: string)']) {
      expect(controller).toContain(`  ${action}: Response {`)
    }
    expect(read('tests/Controllers/PhotoController.test.ts')).toContain("router.delete('/photos/{id}', [PhotoController, 'destroy'])")
  })

  it.each([
    ['userController', 'a lowercase first letter'],
    ['User-Controller', 'a dash'],
    ['../UserController', 'a parent folder'],
    ['/tmp/UserController', 'an absolute path'],
    ['Admin//UserController', 'an empty folder'],
    ['Admin\\UserController', 'a backslash'],
    ['class', 'a reserved word'],
    ['', 'nothing'],
  ])('refuses %j (%s) with one line and writes nothing', async (name) => {
    const result = await app.fw(['make:controller', name])

    expect(result.code).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr.trim().split('\n')).toHaveLength(1)
    expect(result.stderr).toContain('is not a valid controller name')
    expect(files('App')).toEqual([])
    expect(files('tests')).toEqual([])
  })

  it('never overwrites without --force, and overwrites both files with it', async () => {
    await app.fw(['make:controller', 'UserController'])
    app.write('App/Controllers/UserController.ts', '// mine\n')

    const refused = await app.fw(['make:controller', 'UserController', '--resource'])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toBe('App/Controllers/UserController.ts already exists; use --force to overwrite it\n')
    expect(read('App/Controllers/UserController.ts')).toBe('// mine\n')
    expect(read('tests/Controllers/UserController.test.ts')).not.toContain("'store'")

    const forced = await app.fw(['make:controller', 'UserController', '--resource', '--force'])
    expect(forced.code).toBe(0)
    expect(read('App/Controllers/UserController.ts')).toContain('destroy(')
    expect(read('tests/Controllers/UserController.test.ts')).toContain("'store'")
  })

  it('writes nothing when only the test file is in the way', async () => {
    app.write('tests/Controllers/UserController.test.ts', '// mine\n')

    const result = await app.fw(['make:controller', 'UserController'])

    expect(result.code).toBe(1)
    expect(result.stderr).toContain('tests/Controllers/UserController.test.ts already exists')
    expect(files('App')).toEqual([])
  })

  it('routes a plural or irregular resource to its plural path (PostsController → /posts)', async () => {
    expect((await app.fw(['make:controller', 'PostsController'])).code).toBe(0)
    expect((await app.fw(['make:controller', 'PersonController'])).code).toBe(0)

    expect(read('tests/Controllers/PostsController.test.ts')).toContain("router.get('/posts', [PostsController, 'index'])")
    expect(read('tests/Controllers/PersonController.test.ts')).toContain("router.get('/people', [PersonController, 'index'])")
  })

  it('needs exactly one name', async () => {
    const missing = await app.fw(['make:controller'])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toBe('fw make:controller is missing an argument (usage: fw make:controller <Name> [--resource] [--force])\n')
    expect((await app.fw(['make:controller', 'A', 'B'])).code).toBe(1)
    expect(files('App')).toEqual([])
  })
})

describe('fw make:model', () => {
  it('writes a model over the snake_case plural table', async () => {
    const result = await app.fw(['make:model', 'BlogCategory'])

    expect(result).toMatchObject({ code: 0, stdout: 'Created App/Models/BlogCategory.ts\n' })
    const model = read('App/Models/BlogCategory.ts')
    expect(model).toContain("export class BlogCategory extends Model('blog_categories') {}")
    // No column interface: database/schema.d.ts, written by fw migrate, types the table.
    expect(model).not.toContain('interface')
    expect(model).not.toContain('declare module')
    expect(files('database')).toEqual([])
  })

  it('adds the create-table migration with -m and --migration', async () => {
    expect((await app.fw(['make:model', 'Person', '-m'])).code).toBe(0)
    expect((await app.fw(['make:model', 'Box', '--migration'])).code).toBe(0)

    const migrations = files('database/migrations')
    expect(migrations).toHaveLength(2)
    expect(migrations[0]).toMatch(/^\d{14}_create_people_table\.ts$/)
    expect(migrations[1]).toMatch(/^\d{14}_create_boxes_table\.ts$/)
    expect(read(`database/migrations/${migrations[0]}`)).toContain(".createTable('people')")
    expect(read('App/Models/Person.ts')).toContain("extends Model('people')")
  })

  it('keeps a plural class name plural, as Laravel does (Posts → posts, never postses)', async () => {
    const result = await app.fw(['make:model', 'Posts', '-m'])

    expect(result).toMatchObject({ code: 0, stderr: '' })
    const [migration] = files('database/migrations')
    expect(migration).toMatch(/^\d{14}_create_posts_table\.ts$/)
    expect(result.stdout).toBe(`Created App/Models/Posts.ts\nCreated database/migrations/${migration}\n`)
    expect(read(`database/migrations/${migration}`)).toContain(".createTable('posts')")
    expect(read('App/Models/Posts.ts')).toContain("export class Posts extends Model('posts') {}")
  })

  it('refuses bad names and existing files', async () => {
    expect((await app.fw(['make:model', 'post'])).stderr).toContain('is not a valid model name')
    await app.fw(['make:model', 'Post'])
    const again = await app.fw(['make:model', 'Post', '-m'])
    expect(again.code).toBe(1)
    expect(again.stderr).toBe('App/Models/Post.ts already exists; use --force to overwrite it\n')
    expect(files('database')).toEqual([])
    expect((await app.fw(['make:model', 'Post', '--force'])).code).toBe(0)
  })
})

describe('fw make:factory and make:model --factory', () => {
  /** @faker-js/faker as the app's own devDependency (the checkout's copy, linked into the fixture app). */
  const installFaker = () => {
    mkdirSync(join(app.dir, 'node_modules/@faker-js'), { recursive: true })
    symlinkSync(fileURLToPath(new URL('../../../node_modules/@faker-js/faker', import.meta.url)), join(app.dir, 'node_modules/@faker-js/faker'), 'dir')
  }
  const seeder = "import { Post } from '#app/Models/Post.js'\nexport async function run(): Promise<void> {\n  await Post.factory().count(3).create()\n}\n"

  it('writes a model with Post.factory() and its factory, whose rows a seeder creates', async () => {
    const made = await app.fw(['make:model', 'Post', '-m', '--factory'])
    expect(made).toMatchObject({ code: 0, stderr: '' })
    const [migration] = files('database/migrations')
    expect(made.stdout).toBe(`Created App/Models/Post.ts\nCreated database/migrations/${migration}\nCreated database/factories/PostFactory.ts\n`)
    expect(read('App/Models/Post.ts')).toContain("import { PostFactory } from '#database/factories/PostFactory.js'")
    expect(read('App/Models/Post.ts')).toContain('  static factory = () => PostFactory\n')
    expect(read('database/factories/PostFactory.ts')).toContain("export const PostFactory = factory(() => Post, ({ faker }) => ({")

    installFaker()
    app.write('database/seeders/PostSeeder.ts', seeder)
    expect((await app.fw(['migrate'])).code).toBe(0)
    for (let run = 0; run < 2; run++) {
      const seeded = await app.fw(['db:seed'])
      expect([seeded.code, seeded.stderr]).toEqual([0, ''])
    }
    const { createDatabase } = await import('../../src/database/createDatabase.js')
    const db = createDatabase(undefined, app.dir)
    try {
      expect(await db.selectFrom('posts' as never).select((eb) => eb.fn.countAll().as('count')).executeTakeFirst()).toEqual({ count: 6 })
    } finally {
      await db.destroy()
    }
  })

  it('make:factory writes the factory of an existing model and says how to reach it from the model', async () => {
    await app.fw(['make:model', 'Blog/Post'])
    const made = await app.fw(['make:factory', 'Blog/Post'])
    expect(made).toMatchObject({ code: 0, stderr: '' })
    expect(made.stdout).toBe(
      'Created database/factories/Blog/PostFactory.ts\nUse it as PostFactory.count(10).create(); for Post.factory(), add to the model: static factory = () => PostFactory\n',
    )
    expect(read('database/factories/Blog/PostFactory.ts')).toContain("import { Post } from '#app/Models/Blog/Post.js'")
    const again = await app.fw(['make:factory', 'Blog/Post'])
    expect([again.code, again.stderr]).toEqual([1, 'database/factories/Blog/PostFactory.ts already exists; use --force to overwrite it\n'])
  })

  it('refuses a model that does not exist', async () => {
    const missing = await app.fw(['make:factory', 'Comment'])
    expect([missing.code, missing.stderr]).toEqual([1, 'App/Models/Comment.ts does not exist: make the model first (fw make:model Comment --factory writes both)\n'])
    expect(files('database')).toEqual([])
  })

  it('says what to install when the application has no @faker-js/faker', async () => {
    await app.fw(['make:model', 'Post', '-m', '--factory'])
    await app.fw(['migrate'])
    app.write('database/seeders/PostSeeder.ts', seeder)
    // The app's own fw, as npx runs it: from its node_modules, whose fw-runtime has no faker of its own beside it.
    const fw = (args: string[]) => spawnSync(process.execPath, [join(app.dir, 'node_modules/fw-runtime/dist/cli/fw.js'), ...args], { cwd: app.dir, env: cleanEnv(), encoding: 'utf8' })
    const seeded = fw(['db:seed'])
    expect([seeded.status, seeded.stderr]).toEqual([
      1,
      'Seeding failed: PostSeeder: Factories make their fake values with @faker-js/faker: npm install --save-dev @faker-js/faker (nothing of it was written)\n',
    ])
    installFaker()
    expect(fw(['db:seed'])).toMatchObject({ status: 0, stderr: '' })
  })
})

describe('fw make:job', () => {
  it('writes a job with a typed payload, and says how to dispatch it', async () => {
    const made = await app.fw(['make:job', 'SendWelcomeEmail'])
    expect(made).toMatchObject({ code: 0, stderr: '', stdout: 'Created App/Jobs/SendWelcomeEmail.ts\nDispatch it with: await SendWelcomeEmail.dispatch({ … })\n' })
    const job = read('App/Jobs/SendWelcomeEmail.ts')
    expect(job).toContain("import { Job } from 'fw-runtime/queue'")
    expect(job).toContain('export interface SendWelcomeEmailPayload {')
    expect(job).toContain(' * Send welcome email, outside the request: `await SendWelcomeEmail.dispatch({ … })`')
    expect(job).toContain('export class SendWelcomeEmail extends Job<SendWelcomeEmailPayload> {\n  async handle(payload: SendWelcomeEmailPayload): Promise<void> {')
    expect(job).not.toContain('{{')
  })

  it('puts Mail/SendInvoice in a subfolder, and never overwrites without --force', async () => {
    expect((await app.fw(['make:job', 'Mail/SendInvoice'])).code).toBe(0)
    expect(read('App/Jobs/Mail/SendInvoice.ts')).toContain('export class SendInvoice extends Job<SendInvoicePayload> {')
    const again = await app.fw(['make:job', 'Mail/SendInvoice'])
    expect([again.code, again.stderr]).toEqual([1, 'App/Jobs/Mail/SendInvoice.ts already exists; use --force to overwrite it\n'])
    expect((await app.fw(['make:job', 'Mail/SendInvoice', '--force'])).code).toBe(0)
  })

  it('refuses a name that is not a class name', async () => {
    const refused = await app.fw(['make:job', 'send-email'])
    expect([refused.code, refused.stderr]).toEqual([
      1,
      '"send-email" is not a valid job name: use a PascalCase class name such as SendWelcomeEmail, optionally in folders (Admin/SendWelcomeEmail)\n',
    ])
    expect(files('App')).toEqual([])
  })
})

describe('fw make:migration', () => {
  it('writes a timestamped create-table stub with a portable id and timestamps', async () => {
    const result = await app.fw(['make:migration', 'create_flights_table'])

    expect(result.code).toBe(0)
    const [file] = files('database/migrations')
    expect(file).toMatch(/^\d{14}_create_flights_table\.ts$/)
    const stamp = file!.slice(0, 14)
    const made = Date.UTC(+stamp.slice(0, 4), +stamp.slice(4, 6) - 1, +stamp.slice(6, 8), +stamp.slice(8, 10), +stamp.slice(10, 12), +stamp.slice(12, 14))
    expect(Math.abs(Date.now() - made)).toBeLessThan(60_000)
    expect(result.stdout).toBe(`Created database/migrations/${file}\n`)
    const text = read(`database/migrations/${file}`)
    expect(text).toContain(".createTable('flights')\n    .$call(id(db))\n    .$call(timestamps())")
    expect(text).toContain("await db.schema.dropTable('flights').execute()")
  })

  it('writes an alter-table stub for add_<column>_to_<table>', async () => {
    await app.fw(['make:migration', 'add_votes_to_users_table'])
    await app.fw(['make:migration', 'add_score_to_games'])

    const [first, second] = files('database/migrations')
    expect(read(`database/migrations/${first}`)).toContain(".alterTable('users')\n    .addColumn('votes', 'text')")
    expect(read(`database/migrations/${first}`)).toContain(".dropColumn('votes')")
    expect(read(`database/migrations/${second}`)).toContain(".alterTable('games')")
    // Made in the same second, they still sort in the order they were made.
    expect(first! < second!).toBe(true)
  })

  it('writes an empty pair for any other name', async () => {
    await app.fw(['make:migration', 'backfill_slugs'])

    const text = read(`database/migrations/${files('database/migrations')[0]}`)
    // Both bodies hold only comments.
    expect(text).toMatch(/export async function up\(db: Kysely<any>\): Promise<void> \{\n(?: +\/\/.*\n)+\}/)
    expect(text).toMatch(/export async function down\(db: Kysely<any>\): Promise<void> \{\n(?: +\/\/.*\n)+\}/)
  })

  it('refuses names that are not snake_case and names already used', async () => {
    for (const name of ['CreatePosts', 'create-posts', '../create_posts', '1_create']) {
      const result = await app.fw(['make:migration', name])
      expect(result.code).toBe(1)
      expect(result.stderr).toContain('is not a valid migration name')
    }
    await app.fw(['make:migration', 'create_posts_table'])
    const again = await app.fw(['make:migration', 'create_posts_table'])
    expect(again.code).toBe(1)
    expect(again.stderr).toBe('A migration named create_posts_table already exists in database/migrations\n')
    expect(files('database/migrations')).toHaveLength(1)
  })
})

describe('fw', () => {
  it('lists every command with --help', async () => {
    const result = await app.fw(['--help'])

    expect(result.code).toBe(0)
    for (const name of ['serve', 'serve:node', 'route:list', 'make:controller', 'make:model', 'make:migration', 'migrate', 'migrate:rollback', 'migrate:status', 'migrate:fresh', 'migrate:reset', 'migrate:unlock']) {
      expect(result.stdout).toMatch(new RegExp(`^  ${name} +\\S`, 'm'))
    }
  })

  it('explains one command with <command> --help', async () => {
    const result = await app.fw(['make:controller', '--help'])

    expect(result.code).toBe(0)
    expect(result.stdout).toContain('Usage: fw make:controller <Name> [--resource] [--force]')
    expect(files('App')).toEqual([])
  })

  it.each([
    ['make:controler', 'make:controller'],
    ['migrate:stat', 'migrate:status'],
    ['serv', 'serve'],
    ['rollback', 'migrate:rollback'],
  ])('suggests the nearest command for %s', async (typo, nearest) => {
    const result = await app.fw([typo])

    expect(result.code).toBe(1)
    expect(result.stderr).toBe(`Unknown command "${typo}". Did you mean "fw ${nearest}"? Run fw --help for the list.\n`)
  })

  it('names an unknown option in one line, with the nearest known one, and writes nothing', async () => {
    const result = await app.fw(['make:model', 'Post', '--migrtion'])

    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: 'fw make:model: unknown option "--migrtion". Did you mean "--migration"? (usage: fw make:model <Name> [--migration|-m] [--factory] [--force])\n',
    })
    expect(files('App')).toEqual([])
    expect(files('database')).toEqual([])
  })

  it.each([
    [['make:controller', 'UserController', '--resorce'], 'fw make:controller: unknown option "--resorce". Did you mean "--resource"? (usage: fw make:controller <Name> [--resource] [--force])'],
    [['make:model', 'Post', '--forse'], 'fw make:model: unknown option "--forse". Did you mean "--force"? (usage: fw make:model <Name> [--migration|-m] [--factory] [--force])'],
    [['migrate:rollback', '--stpe=2'], 'fw migrate:rollback: unknown option "--stpe". Did you mean "--step"? (usage: fw migrate:rollback [--step=N] [--no-types])'],
    [['route:list', '--verbos'], 'fw route:list: unknown option "--verbos". Did you mean "--verbose"? (usage: fw route:list)'],
    [['route:list', '--hlep'], 'fw route:list: unknown option "--hlep". Did you mean "--help"? (usage: fw route:list)'],
    [['make:model', 'Post', '--zebra'], 'fw make:model: unknown option "--zebra" (usage: fw make:model <Name> [--migration|-m] [--factory] [--force])'],
    [['make:model', 'Post', '-x'], 'fw make:model: unknown option "-x" (usage: fw make:model <Name> [--migration|-m] [--factory] [--force])'],
    [['make:model', 'Post', '-mx'], 'fw make:model: unknown option "-x" (usage: fw make:model <Name> [--migration|-m] [--factory] [--force])'],
  ])('names the unknown option of %j', async (args, line) => {
    const result = await app.fw(args)

    expect(result).toEqual({ code: 1, stdout: '', stderr: `${line}\n` })
    expect(files('App')).toEqual([])
  })

  it('takes --verbose and --help with any command, and -m as --migration', async () => {
    expect((await app.fw(['make:model', 'Post', '--verbose', '-m'])).code).toBe(0)
    expect(files('database/migrations')).toHaveLength(1)
    expect((await app.fw(['make:model', '--help'])).stdout).toContain('Usage: fw make:model <Name> [--migration|-m] [--factory] [--force]')
  })

  it('suggests nothing for a name far from every command', async () => {
    const result = await app.fw(['zzzzzzzz'])
    expect(result.code).toBe(1)
    expect(result.stderr).toBe('Unknown command "zzzzzzzz". Run fw --help for the list.\n')
  })

  it('outside an application prints one hint, writes nothing and exits 1', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'not-an-app-'))
    try {
      // A project of some other kind: a package.json without fw-runtime.
      writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'other', private: true }))
      for (const args of [['make:controller', 'UserController'], ['migrate']]) {
        const result = await runFw(folder, args)
        expect(result).toEqual({
          code: 1,
          stdout: '',
          stderr:
            'fw runs inside an Fw application (a folder whose package.json depends on fw-runtime): cd into one, or create one with npm create fw-app@latest my-app\n',
        })
      }
      expect((await runFw(folder, ['--help'])).code).toBe(0)
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  })
})

describe('fw make:policy', () => {
  const schema = `export interface Posts {\n  id: Generated<number>\n  author_id: number\n  title: string\n}\n\ndeclare module 'fw-runtime' {\n  interface Tables {\n    posts: Posts\n  }\n}\n`

  it('writes a policy with the five abilities typed by the model and the user, and its test', async () => {
    await app.fw(['make:model', 'Post'])
    const made = await app.fw(['make:policy', 'Post', '--model=Post'])
    expect(made).toMatchObject({ code: 0, stderr: '' })
    expect(made.stdout).toBe('Created App/Policies/PostPolicy.ts\nCreated tests/Policies/PostPolicy.test.ts\nRegister it in bootstrap/app.ts: Gate.policy(Post, PostPolicy)\n')
    const policy = read('App/Policies/PostPolicy.ts')
    expect(policy).toContain("import type { Post } from '#app/Models/Post.js'")
    expect(policy).toContain('type PostRow = RowOf<typeof Post>')
    expect(policy).toContain('export class PostPolicy {')
    expect(policy).toContain("on a route that binds {post},")
    for (const method of ['viewAny(user: AuthUser): boolean', 'view(user: AuthUser, post: PostRow): boolean', 'create(user: AuthUser): boolean']) {
      expect(policy).toContain(`  ${method} {\n    return true\n  }`)
    }
    expect(policy).toContain('  update(user: AuthUser, post: PostRow): boolean | string {\n    return false\n  }')
    expect(policy).toContain('  delete(user: AuthUser, post: PostRow): boolean | string {\n    return false\n  }')
    expect(policy).not.toContain('{{')
    const test = read('tests/Policies/PostPolicy.test.ts')
    expect(test).toContain("import { PostPolicy } from '#app/Policies/PostPolicy.js'")
    expect(test).toContain('const gate = new GateRegistry().policy(Post, PostPolicy)')
  })

  it('lets the owner update and delete when the schema shows an owner column; takes PostPolicy and a model in a folder', async () => {
    await app.fw(['make:model', 'Blog/Post'])
    app.write('database/schema.d.ts', schema)
    expect((await app.fw(['make:policy', 'PostPolicy', '--model=Blog/Post'])).code).toBe(0)
    const policy = read('App/Policies/PostPolicy.ts')
    expect(policy).toContain("import type { Post } from '#app/Models/Blog/Post.js'")
    expect(policy).toContain('  update(user: AuthUser, post: PostRow): boolean | string {\n    return user.id === post.author_id\n  }')
  })

  it('never overwrites without --force, and refuses a model that does not exist or a name that is not a class', async () => {
    const missing = await app.fw(['make:policy', 'Comment'])
    expect([missing.code, missing.stderr]).toEqual([1, 'App/Models/Comment.ts does not exist: make the model first (fw make:model Comment), or name another with --model=<Model>\n'])
    const refused = await app.fw(['make:policy', 'post-policy'])
    expect([refused.code, refused.stderr]).toEqual([1, '"post-policy" is not a valid policy name: use a PascalCase class name such as Post, optionally in folders (Admin/Post)\n'])
    expect(files('App')).toEqual([])
    await app.fw(['make:model', 'Post'])
    expect((await app.fw(['make:policy', 'Post'])).code).toBe(0)
    const again = await app.fw(['make:policy', 'Post'])
    expect([again.code, again.stderr]).toEqual([1, 'App/Policies/PostPolicy.ts already exists; use --force to overwrite it\n'])
    expect((await app.fw(['make:policy', 'Post', '--force'])).code).toBe(0)
  })

  it('explains itself with --help', async () => {
    const help = await app.fw(['make:policy', '--help'])
    expect(help.code).toBe(0)
    expect(help.stdout).toContain('make:policy <Name> [--model=<Model>] [--force]')
    expect(help.stdout).toContain("Register it in bootstrap/app.ts: Gate.policy(Post, PostPolicy)")
  })
})
