// Every generator in turn on both starters, the way a user grows an app: after each, the app type-checks, passes its
// own tests without touching its development database, builds, and answers from dist/ under `fw start` and under
// `node dist/public/index.js` started from another folder (tests/support/shipped.ts). The routes a generator
// leaves to the user are added here as a user adds them, in routes/web.ts.
import { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { stripVTControlCharacters } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import { installedApp, type InstalledApp, type Template } from './support/installedApp.js'
import { buildAndStart, passesItsOwnChecks } from './support/shipped.js'

const PASSWORD = 'correct horse battery staple'
const JSON_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json' }

/** What a route answers, as JSON. */
async function getJson(url: string, init?: RequestInit): Promise<{ status: number; body: any }> {
  const response = await fetch(url, init)
  return { status: response.status, body: await response.json() }
}

/** A browser's sign-in through the form, with its session cookie and CSRF token; resolves to the cookie. */
async function signIn(url: string, email: string): Promise<string> {
  const page = await fetch(`${url}/login`, { headers: { Accept: 'text/html' } })
  const guest = page.headers.getSetCookie().find((cookie) => cookie.startsWith('fw_session='))!.split(';')[0]!
  const token = /name="_token" value="([^"]+)"/.exec(await page.text())![1]!
  const signedIn = await fetch(`${url}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html', Cookie: guest },
    body: new URLSearchParams({ _token: token, email, password: PASSWORD }).toString(),
  })
  expect([signedIn.status, signedIn.headers.get('location')]).toEqual([303, '/me'])
  return signedIn.headers.getSetCookie().find((cookie) => cookie.startsWith('fw_session='))!.split(';')[0]!
}

describe.each<Template>(['api', 'minimal'])('fw generators on the %s starter, each proven from dist/', (template) => {
  let app: InstalledApp

  beforeAll(async () => {
    app = await installedApp({ template })
  })

  /** The migrations the starter comes with: the api starter's tasks table. */
  const starterMigrations = template === 'api' ? 1 : 0

  /** `npx fw …` in the app, which must succeed. */
  const fw = (...args: string[]) => app.runOk('npx', ['fw', ...args])

  /** Adds routes to routes/web.ts as a user does: the imports after the others, the routes at the end. */
  function addRoutes(imports: string[], routes: string[]): void {
    const file = join(app.dir, 'routes/web.ts')
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n')
    const lastImport = lines.findLastIndex((line) => line.startsWith('import '))
    lines.splice(lastImport + 1, 0, ...imports)
    writeFileSync(file, `${[...lines, '', ...routes].join('\n')}\n`)
  }

  it('the starter itself', async () => {
    // create-fw-app migrated the api starter's tasks table into database/database.sqlite; the minimal one has none.
    const database = join(app.dir, 'database/database.sqlite')
    if (template === 'api') expect((await fw('migrate:status')).stdout).toMatch(/create_tasks_table +1 +Ran/)
    else expect(existsSync(database)).toBe(false)
    const before = template === 'api' ? readFileSync(database) : undefined
    await passesItsOwnChecks(app)
    // Its tests, the health check's and the task API's included, ran on a database of their own.
    if (template === 'api') expect(readFileSync(database).equals(before!)).toBe(true)
    else expect(existsSync(database)).toBe(false)
    await buildAndStart(app, async ({ url }) => {
      const { status, body } = await getJson(`${url}/`)
      expect(status).toBe(200)
      expect(body).toMatchObject({ name: expect.stringMatching(/^Fw \d/), status: 'running' })
      if (template === 'minimal') return
      expect(await getJson(`${url}/hello`)).toEqual({ status: 200, body: { message: 'Hello, World!' } })
      // The task API on the database: a task created is read back, and gone once deleted.
      const created = await getJson(`${url}/api/tasks`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ title: 'From the build' }) })
      expect(created).toMatchObject({ status: 201, body: { task: { id: expect.any(Number), title: 'From the build', completed: false } } })
      const task = `${url}/api/tasks/${created.body.task.id}`
      expect(await getJson(task)).toEqual({ status: 200, body: { task: created.body.task } })
      expect(await getJson(task, { method: 'DELETE' })).toEqual({ status: 200, body: { message: 'Task deleted', id: created.body.task.id } })
      expect(await getJson(task)).toEqual({ status: 404, body: { error: 'Task not found' } })
    })
  })

  it('make:controller writes a controller and a test that pass', async () => {
    const result = await fw('make:controller', 'ReportController')
    expect(result.stdout).toBe('Created App/Controllers/ReportController.ts\nCreated tests/Controllers/ReportController.test.ts\n')
    addRoutes(["import { ReportController } from '#app/Controllers/ReportController.js'"], ["Route.get('/reports', [ReportController, 'index'])"])
    await passesItsOwnChecks(app)
    await buildAndStart(app, async ({ url }) => {
      expect(await getJson(`${url}/reports`)).toEqual({ status: 200, body: { message: 'Hello from ReportController' } })
    })
  })

  it('make:controller --resource in a subfolder', async () => {
    await fw('make:controller', 'Admin/ReportController', '--resource')
    expect(existsSync(join(app.dir, 'App/Controllers/Admin/ReportController.ts'))).toBe(true)
    const tests = await app.runOk('npx', ['vitest', 'run', 'tests/Controllers'])
    expect(stripVTControlCharacters(tests.stdout)).toMatch(/Tests +6 passed \(6\)/)
    addRoutes(
      ["import { ReportController as AdminReportController } from '#app/Controllers/Admin/ReportController.js'"],
      ["Route.apiResource('admin/reports', AdminReportController)"],
    )
    await passesItsOwnChecks(app)
    await buildAndStart(app, async ({ url }) => {
      expect(await getJson(`${url}/admin/reports/7`)).toMatchObject({ status: 200, body: { id: '7' } })
      const stored = await getJson(`${url}/admin/reports`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ title: 'Q3' }) })
      expect(stored).toMatchObject({ status: 201, body: { data: { title: 'Q3' } } })
    })
  })

  it('make:model -m, then migrate, status and rollback on the embedded SQLite', async () => {
    await fw('make:model', 'Article', '-m')
    addRoutes(
      ["import { Article } from '#app/Models/Article.js'"],
      ["Route.get('/articles', async () => ({ articles: await Article.all() }))", "Route.post('/articles', async () => ({ article: await Article.create({}) }))"],
    )
    await passesItsOwnChecks(app)

    // The api starter ships database/schema.d.ts with its tasks table, which the migration updates.
    const types = template === 'api' ? 'Updated database/schema\\.d\\.ts: new table articles' : 'Wrote database/schema\\.d\\.ts: the types of 1 table'
    expect((await fw('migrate')).stdout).toMatch(new RegExp(`^Migrated  \\d{14}_create_articles_table  \\(\\d+ ms\\)\\n${types}\\.\\n$`))
    expect(existsSync(join(app.dir, 'database/database.sqlite'))).toBe(true)
    expect((await fw('migrate:status')).stdout).toMatch(new RegExp(`create_articles_table +${1 + starterMigrations} +Ran`))
    await passesItsOwnChecks(app)
    await buildAndStart(app, async ({ url, how }) => {
      const created = await getJson(`${url}/articles`, { method: 'POST' })
      expect(created).toMatchObject({ status: 200, body: { article: { id: expect.any(Number) } } })
      // The same database/database.sqlite, whichever folder the build was started from.
      expect((await getJson(`${url}/articles`)).body.articles).toHaveLength(how === 'fw start' ? 1 : 2)
    })
  })

  it('make:migration, the alter-table and the empty stubs', async () => {
    await fw('make:migration', 'add_title_to_articles_table')
    await fw('make:migration', 'backfill_article_titles')
    await passesItsOwnChecks(app)

    const migrated = await fw('migrate')
    expect(migrated.stdout.trim().split('\n')).toHaveLength(3)
    expect(migrated.stdout).toContain('\nUpdated database/schema.d.ts: new column articles.title.\n')
    const batch = 2 + starterMigrations
    expect((await fw('migrate:status')).stdout).toMatch(new RegExp(`add_title_to_articles_table +${batch} +Ran\\n.*backfill_article_titles +${batch} +Ran`))
    expect((await fw('migrate:rollback')).stdout).toMatch(/^Rolled back  \d+_backfill_article_titles .*\nRolled back  \d+_add_title_to_articles_table /)
    // Each of them rewrites database/schema.d.ts, and says so in one more line.
    expect((await fw('migrate:fresh')).stdout.trim().split('\n')).toHaveLength(4 + starterMigrations)
    expect((await fw('migrate:reset')).stdout.trim().split('\n')).toHaveLength(4 + starterMigrations)
    expect(readdirSync(join(app.dir, 'database/migrations')).filter((file) => file.endsWith('.ts'))).toHaveLength(3 + starterMigrations)
    await fw('migrate')
    await buildAndStart(app, async ({ url }) => {
      expect(await getJson(`${url}/articles`)).toEqual({ status: 200, body: { articles: [] } })
    })
  })

  it('make:middleware writes middleware whose test passes, and it runs on a route of the build', async () => {
    await fw('make:middleware', 'EnsureTeamMember')
    addRoutes(
      ["import { ensureTeamMember } from '#app/Middleware/ensureTeamMember.js'"],
      ["Route.get('/team', () => ({ team: 'members only' })).middleware(ensureTeamMember)"],
    )
    await passesItsOwnChecks(app)
    await buildAndStart(app, async ({ url }) => {
      expect(await getJson(`${url}/team`)).toEqual({ status: 200, body: { team: 'members only' } })
    })
  })

  it('make:test writes a test that passes', async () => {
    await fw('make:test', 'Feature/HomeTest')
    await passesItsOwnChecks(app)
    await buildAndStart(app, async ({ url }) => {
      expect((await fetch(`${url}/`)).status).toBe(200)
    })
  })

  it('make:seeder writes a seeder; db:seed runs it and the build serves its rows', async () => {
    await fw('make:seeder', 'DatabaseSeeder')
    await passesItsOwnChecks(app)
    const tests = await app.runOk('npx', ['vitest', 'run', 'tests/Middleware', 'tests/Feature'])
    expect(stripVTControlCharacters(tests.stdout)).toMatch(/Tests +2 passed \(2\)/)
    expect((await fw('db:seed')).stdout).toMatch(/^Seeded {2}DatabaseSeeder {2}\(\d+ ms\)\n$/)

    // The seeder as a user fills it in.
    const seeder = join(app.dir, 'database/seeders/DatabaseSeeder.ts')
    writeFileSync(seeder, readFileSync(seeder, 'utf8').replace(/\/\/ await db\.insertInto.*/, "await db.insertInto('articles').values({ title: 'Seeded' }).execute()"))
    expect((await fw('db:seed')).stdout).toMatch(/^Seeded {2}DatabaseSeeder/)
    await passesItsOwnChecks(app)
    await buildAndStart(app, async ({ url }) => {
      expect((await getJson(`${url}/articles`)).body.articles).toMatchObject([{ title: 'Seeded' }])
    })
  })

  it('make:factory: a test makes rows with it on the tests\' own database, emptied before each test; a seeder too', async () => {
    const made = await fw('make:factory', 'Article')
    expect(made.stdout).toMatch(/^Created database\/factories\/ArticleFactory\.ts\n/)
    // The definition from the columns database/schema.d.ts knows (articles has a title), and a test as a user writes it.
    const factoryFile = join(app.dir, 'database/factories/ArticleFactory.ts')
    expect(readFileSync(factoryFile, 'utf8')).toContain('  title: faker.lorem.sentence(),\n')
    writeFileSync(
      join(app.dir, 'tests/articles.test.ts'),
      [
        "import { beforeEach, describe, expect, it } from 'vitest'",
        "import { refreshDatabase } from 'fw-runtime/testing'",
        "import { Article } from '#app/Models/Article.js'",
        "import { ArticleFactory } from '#database/factories/ArticleFactory.js'",
        "import { createClient } from './app.js'",
        '',
        'beforeEach(refreshDatabase)',
        '',
        "describe('articles', () => {",
        "  it('lists the articles a factory made', async () => {",
        '    await ArticleFactory.count(3).create()',
        "    const response = await (await createClient()).get('/articles')",
        '    expect((await response.json()).articles).toHaveLength(3)',
        '  })',
        '',
        "  it('starts each test with no articles', async () => {",
        '    expect(await Article.count()).toBe(0)',
        '  })',
        '})',
        '',
      ].join('\n'),
    )
    const seeder = join(app.dir, 'database/seeders/DatabaseSeeder.ts')
    writeFileSync(
      seeder,
      readFileSync(seeder, 'utf8')
        .replace("import type { Kysely } from 'fw-runtime'", "import type { Kysely } from 'fw-runtime'\nimport { ArticleFactory } from '#database/factories/ArticleFactory.js'")
        .replace("await db.insertInto('articles')", "await ArticleFactory.count(5).create()\n  await db.insertInto('articles')"),
    )
    const tests = await passesItsOwnChecks(app)
    expect(tests).toMatch(/tests\/articles\.test\.ts \(2 tests\)/)
    expect((await fw('db:seed')).stdout).toMatch(/^Seeded {2}DatabaseSeeder/)
    await buildAndStart(app, async ({ url }) => {
      const { articles } = (await getJson(`${url}/articles`)).body as { articles: { title: string }[] }
      expect(articles).toHaveLength(7)
      expect(articles.filter((article) => article.title === 'Seeded')).toHaveLength(2)
    })
  })

  it('make:command: fw lists it and runs it with its typed input, from the sources and, in production, from the build', async () => {
    const made = await fw('make:command', 'CountRoutes', '--command=routes:count')
    expect(made.stdout).toBe('Created App/Console/Commands/CountRoutes.ts\nRun it with: npx fw routes:count\n')
    // An argument as a user declares it, read typed in handle().
    const file = join(app.dir, 'App/Console/Commands/CountRoutes.ts')
    const source = readFileSync(file, 'utf8')
    expect(source).toContain("    // user: { type: 'number', description: 'The id of the user' },\n")
    const edited = source
      .replace("    // user: { type: 'number', description: 'The id of the user' },\n", "    user: { type: 'number', description: 'The id of the user' },\n")
      .replace("    this.info('Count routes: done')", '    const next: number = this.arguments.user + 1\n    this.info(`next user: ${next}`)')
    writeFileSync(file, edited)
    // It type-checks as the app does (a command adds no test of its own to run).
    await app.runOk('npx', ['tsc', '--noEmit'])
    expect((await fw('--help')).stdout).toMatch(/\n {2}routes:count +Count routes\n/)
    expect((await fw('routes:count', '41')).stdout).toBe('next user: 42\n')
    const missing = await app.run('npx', ['fw', 'routes:count'])
    expect([missing.code, missing.stderr]).toEqual([1, 'fw routes:count: missing the argument <user> (The id of the user) (usage: fw routes:count <user>)\n'])

    await app.runOk('npm', ['run', 'build'])
    // Production runs the build: a change to the sources after it is not seen there.
    writeFileSync(file, edited.replace('next user:', 'changed:'))
    expect((await app.runOk('npx', ['fw', 'routes:count', '41'], { env: { NODE_ENV: 'production' } })).stdout).toBe('next user: 42\n')
    expect((await fw('routes:count', '41')).stdout).toBe('changed: 42\n')
  })

  it('make:job: a route dispatches it, the sync queue runs it in the request, and a test asserts it with queue.fake()', async () => {
    appendFileSync(join(app.dir, '.env'), '\nQUEUE_DRIVER=sync\n')
    const made = await fw('make:job', 'PublishArticle')
    expect(made.stdout).toMatch(/^Created App\/Jobs\/PublishArticle\.ts\n/)
    // The payload and handle() as a user fills them in, a route that dispatches the job, and a test of it.
    const jobFile = join(app.dir, 'App/Jobs/PublishArticle.ts')
    const job = readFileSync(jobFile, 'utf8')
    expect(job).toContain('  // userId: number\n')
    expect(job).toContain('    // const user = await User.findOrFail(payload.userId)\n')
    writeFileSync(
      jobFile,
      job
        .replace("import { Job } from 'fw-runtime/queue'", "import { Job } from 'fw-runtime/queue'\nimport { Article } from '#app/Models/Article.js'")
        .replace('  // userId: number\n', '  title: string\n')
        .replace('    // const user = await User.findOrFail(payload.userId)\n', '    await Article.create({ title: payload.title })\n'),
    )
    addRoutes(
      ["import { PublishArticle } from '#app/Jobs/PublishArticle.js'"],
      ["Route.post('/articles/publish', async (request) => {", "  await PublishArticle.dispatch({ title: String(request.input('title')) })", '  return { queued: true }', '})'],
    )
    writeFileSync(
      join(app.dir, 'tests/publish.test.ts'),
      [
        "import { afterEach, expect, it } from 'vitest'",
        "import { queue } from 'fw-runtime/queue'",
        "import { PublishArticle } from '#app/Jobs/PublishArticle.js'",
        "import { createClient } from './app.js'",
        '',
        'afterEach(() => queue.restore())',
        '',
        "it('queues PublishArticle with the title it was given', async () => {",
        '  const jobs = queue.fake()',
        "  const response = await (await createClient()).post('/articles/publish', { title: 'Queued' })",
        '  expect(response.status).toBe(200)',
        "  jobs.assertPushed(PublishArticle, (payload) => payload.title === 'Queued')",
        '})',
        '',
      ].join('\n'),
    )
    const tests = await passesItsOwnChecks(app)
    expect(tests).toMatch(/tests\/publish\.test\.ts \(1 test\)/)
    await buildAndStart(app, async ({ url }) => {
      const title = `Published ${Math.random()}`
      expect(await getJson(`${url}/articles/publish`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ title }) })).toEqual({ status: 200, body: { queued: true } })
      const { articles } = (await getJson(`${url}/articles`)).body as { articles: { title: string }[] }
      expect(articles.filter((article) => article.title === title)).toHaveLength(1)
    })
  })

  it('queue:work: with QUEUE_DRIVER unset the job waits in the app\'s database for a worker, under fw start --queue-workers and fw queue:work', async () => {
    const envFile = join(app.dir, '.env')
    writeFileSync(envFile, readFileSync(envFile, 'utf8').replace('\nQUEUE_DRIVER=sync\n', '\n'))
    await passesItsOwnChecks(app)
    await buildAndStart(
      app,
      async ({ url }) => {
        const title = `Queued ${Math.random()}`
        expect(await getJson(`${url}/articles/publish`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ title }) })).toEqual({ status: 200, body: { queued: true } })
        let written = 0
        for (let tries = 0; tries < 100 && written === 0; tries++) {
          await sleep(100)
          const { articles } = (await getJson(`${url}/articles`)).body as { articles: { title: string }[] }
          written = articles.filter((article) => article.title === title).length
        }
        expect(written, 'the worker ran the job within 10 s, once').toBe(1)
      },
      { queueWorkers: true },
    )
  })

  it('signed links: built on APP_URL, answered by a route with the signed middleware, refused once changed', async () => {
    addRoutes(
      [],
      [
        "Route.get('/invitations/{id}', (request) => ({ invitation: request.param('id') })).name('invitations.show').middleware('signed')",
        "Route.get('/invite/{id}', (request) => ({ link: Route.signedUrl('invitations.show', { id: request.param('id')! }, { expiresIn: 600 }) }))",
      ],
    )
    await passesItsOwnChecks(app)
    /** The invitation link the app makes, then what its own path, and a changed one, answer. */
    const answers = async (url: string) => {
      const { link } = (await getJson(`${url}/invite/7`)).body as { link: string }
      expect(link).toMatch(/^http:\/\/127\.0\.0\.1:8000\/invitations\/7\?expires=\d+&signature=[0-9a-f]{64}$/)
      const path = link.slice('http://127.0.0.1:8000'.length)
      expect(await getJson(`${url}${path}`)).toEqual({ status: 200, body: { invitation: '7' } })
      expect(await getJson(`${url}${path.replace('/7?', '/8?')}`)).toEqual({ status: 403, body: { error: 'Invalid signature.' } })
    }
    for (const command of ['serve', 'serve:node']) {
      const server = await app.start(['npx', 'fw', command])
      try {
        await answers(server.url)
      } finally {
        await server.stop()
      }
    }
    await buildAndStart(app, ({ url }) => answers(url))
  })

  it('route:list reads the app routes, and fw serve and fw serve:node answer', async () => {
    const routes = await fw('route:list')
    expect(routes.stdout).toMatch(/^GET +\/reports +\S*ReportController@index/m)
    if (template === 'api') expect(routes.stdout).toMatch(/^GET +\/health +\S*HealthController@/m)

    for (const command of ['serve', 'serve:node']) {
      const server = await app.start(['npx', 'fw', command])
      try {
        expect(await getJson(`${server.url}/team`)).toEqual({ status: 200, body: { team: 'members only' } })
        // The API reference, from the Swagger UI files the installed fw-runtime ships (swagger-ui-dist is not installed).
        const docs = await fetch(`${server.url}/docs/assets/swagger-ui-bundle.js`)
        expect([docs.status, docs.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8'])
        expect((await docs.arrayBuffer()).byteLength).toBeGreaterThan(1_000_000)
        expect(existsSync(join(app.dir, 'node_modules/swagger-ui-dist'))).toBe(false)
        // Both servers echo the id a proxy sent, and make one when none was sent.
        const sent = await fetch(`${server.url}/team`, { headers: { 'X-Request-Id': 'trace-42' } })
        expect(sent.headers.get('x-request-id')).toBe('trace-42')
        const made = await fetch(`${server.url}/no-such-page`)
        expect([made.status, made.headers.get('x-request-id')]).toEqual([404, expect.stringMatching(/^[0-9a-f-]{36}$/)])
      } finally {
        await server.stop()
      }
    }
  })

  it('make:auth: its tests pass on a database of their own, and the build registers and signs in', async () => {
    await fw('make:auth')
    expect((await fw('migrate')).stdout).toMatch(/create_users_table/)
    const tests = await passesItsOwnChecks(app)
    expect(tests).toMatch(/auth\.test\.ts/)
    await buildAndStart(app, async ({ url, how }) => {
      const email = `ada-${how.split(' ')[0]}@example.com`
      const credentials = JSON.stringify({ name: 'Ada', email, password: PASSWORD, password_confirmation: PASSWORD })
      expect((await getJson(`${url}/register`, { method: 'POST', headers: JSON_HEADERS, body: credentials })).status).toBe(202)
      const login = await getJson(`${url}/login`, { method: 'POST', headers: JSON_HEADERS, body: credentials })
      expect(login.status).toBe(200)
      const me = await getJson(`${url}/me`, { headers: { Accept: 'application/json', Authorization: `Bearer ${login.body.token}` } })
      expect(me).toEqual({ status: 200, body: { user: { id: expect.any(Number), name: 'Ada', email }, email_verified_at: null } })
      // A browser signs in through the form and lands on a page, never on a JSON route.
      const cookie = await signIn(url, email)
      const home = await fetch(`${url}/me`, { headers: { Accept: 'text/html', Cookie: cookie } })
      expect([home.status, home.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8'])
    })
  })

  it('make:dash Admin: its tests pass, and the build shows the dashboard to an admin, in its environment', async () => {
    await fw('make:dash', 'Admin')
    await fw('migrate')
    await passesItsOwnChecks(app)
    // The users registered above never followed their verification link: only --force grants them.
    await fw('admin:grant', 'ada-fw@example.com', '--force')
    await fw('admin:grant', 'ada-node@example.com', '--force')
    const { name, version } = JSON.parse(readFileSync(join(app.dir, 'package.json'), 'utf8')) as { name: string; version: string }
    // The document served in production too, to see that the build leaves the dashboard's pages out of it.
    const env = readFileSync(join(app.dir, '.env'), 'utf8')
    appendFileSync(join(app.dir, '.env'), '\nOPENAPI=true\n')
    await buildAndStart(app, async ({ url, how }) => {
      const documented = Object.keys((await getJson(`${url}/openapi.json`)).body.paths)
      expect(documented).toContain('/login')
      // The dashboard's own paths; /admin/reports is the app's, from make:controller above.
      expect(documented.filter((path) => /^\/admin($|\/(tables|jobs)\/)/.test(path))).toEqual([])
      expect(documented).toContain('/admin/reports')
      const guest = await fetch(`${url}/admin`, { redirect: 'manual', headers: { Accept: 'text/html' } })
      expect([guest.status, guest.headers.get('location')]).toEqual([302, '/login?redirect=%2Fadmin'])
      const cookie = await signIn(url, `ada-${how.split(' ')[0]}@example.com`)
      const overview = await fetch(`${url}/admin`, { headers: { Accept: 'text/html', Cookie: cookie } })
      expect(overview.status).toBe(200)
      const page = await overview.text()
      // fw start sets NODE_ENV=production, whatever APP_ENV the .env of a laptop says.
      expect(page).toContain(`<dt>Environment</dt><dd>${how === 'fw start' ? 'production' : 'local'}</dd>`)
      expect(page).toContain(`<dt>Application</dt><dd>${name} ${version}</dd>`)
      // The 7 articles of the seeder and factory steps, and the 4 that make:job's job wrote (2 at dispatch, 2 by workers).
      expect(page).toMatch(/<a href="\/admin\/tables\/articles">articles<\/a><\/td><td class="num">11<\/td>/)
    })
    writeFileSync(join(app.dir, '.env'), env)
  })

  it('make:policy: its test passes, and the build answers a can: route and the dashboard by it', async () => {
    const made = await fw('make:policy', 'Article')
    expect(made.stdout).toBe('Created App/Policies/ArticlePolicy.ts\nCreated tests/Policies/ArticlePolicy.test.ts\nRegister it in bootstrap/app.ts: Gate.policy(Article, ArticlePolicy)\n')
    // Registered in bootstrap/app.ts, as the generator says.
    const bootstrap = join(app.dir, 'bootstrap/app.ts')
    const imports = "import { Gate } from 'fw-runtime/authorization'\nimport { Article } from '#app/Models/Article.js'\nimport { ArticlePolicy } from '#app/Policies/ArticlePolicy.js'\n"
    const source = readFileSync(bootstrap, 'utf8')
    writeFileSync(bootstrap, imports + source.replace(/(export function configure\([^)]*\): void \{\n)/, '$1  Gate.policy(Article, ArticlePolicy)\n'))
    addRoutes(["import { auth } from 'fw-runtime/auth'"], ["Route.post('/guarded-articles', () => ({ created: true })).middleware(auth, 'can:create,Article')"])
    await passesItsOwnChecks(app)
    await buildAndStart(app, async ({ url, how }) => {
      expect(await getJson(`${url}/guarded-articles`, { method: 'POST', headers: JSON_HEADERS })).toEqual({ status: 401, body: { error: 'Unauthenticated' } })
      const email = `ada-${how.split(' ')[0]}@example.com`
      const login = await getJson(`${url}/login`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ email, password: PASSWORD }) })
      const bearer = { ...JSON_HEADERS, Authorization: `Bearer ${login.body.token}` }
      expect(await getJson(`${url}/guarded-articles`, { method: 'POST', headers: bearer })).toEqual({ status: 200, body: { created: true } })
      // The stub lets no one change an article until its rule is written (articles have no owner column): nor may the dashboard.
      const cookie = await signIn(url, email)
      const edit = await fetch(`${url}/admin/tables/articles/rows/1/edit`, { headers: { Accept: 'text/html', Cookie: cookie } })
      expect(edit.status).toBe(403)
      expect(await edit.text()).toContain('This action is unauthorized.')
      expect((await fetch(`${url}/admin/tables/articles/rows/1`, { headers: { Accept: 'text/html', Cookie: cookie } })).status).toBe(200)
    })
  })
})
