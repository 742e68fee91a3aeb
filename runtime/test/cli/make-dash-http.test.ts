import type { ChildProcess } from 'node:child_process'
import { rmSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { createDatabase } from '../../src/database/createDatabase.js'
import { DatabaseQueue } from '../../src/queue/DatabaseQueue.js'
import { pendingJob } from '../../src/queue/pendingJob.js'
import { PgBossQueue } from '../../src/queue/PgBossQueue.js'
import type { StoredQueue } from '../../src/queue/types.js'
import { createFwApp, type FwApp } from '../support/fwApp.js'
import { BACKENDS, Browser, checkout, startApp } from '../support/generatedAuthApp.js'

/** A migration with a column of every kind the dashboard's forms tell apart. */
const POSTS_MIGRATION = `import { id, timestamps, type Kysely } from 'fw-runtime'

export async function up(db: Kysely<any>): Promise<void> {
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
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('posts').execute()
}
`

const POST_MODEL = "import { Model } from 'fw-runtime'\n\nexport class Post extends Model('posts') {}\n"

/** Locked posts (by title) can be seen but not changed or deleted; a secret one is not even shown; who lists, lists all. */
const POST_POLICY = `type PostRow = { title: string }

export class PostPolicy {
  viewAny() {
    return true
  }
  view(_user: unknown, post: PostRow) {
    return post.title !== 'Secret' || 'This post is secret'
  }
  create() {
    return true
  }
  update(_user: unknown, post: PostRow) {
    return post.title !== 'Locked' || 'This post is locked'
  }
  delete(_user: unknown, post: PostRow) {
    return post.title !== 'Locked' || 'This post is locked'
  }
}
`

const REGISTER_POLICY = 'Gate.policy(Post, PostPolicy)\n'

/** The cells of one column of a list page's rows (0 is the Open link, 1 the id, 2 the title). */
function column(page: string, index: number): string[] {
  const body = /<tbody>([^]*?)<\/tbody>/.exec(page)?.[1] ?? ''
  return [...body.matchAll(/<tr>([^]*?)<\/tr>/g)].map((row) => [...row[1]!.matchAll(/<td[^>]*>([^]*?)<\/td>/g)][index]?.[1] ?? '')
}

describe.each(BACKENDS)('the generated Admin dashboard on $name', (backend) => {
  let app: FwApp
  let server: { url: string; child: ChildProcess }
  let stopDatabase: () => void
  let env: NodeJS.ProcessEnv
  let admin: Browser
  let someone: Browser
  let mallory: Browser
  let granted: { code: number; stdout: string; stderr: string }

  beforeAll(async () => {
    const database = await backend.start()
    stopDatabase = database.stop
    // ADMIN_EMAILS granted the dashboard to whoever registered its address first: it must grant nothing now.
    env = { ...database.env, APP_KEY: `base64:${Buffer.alloc(32, 7).toString('base64')}`, ADMIN_EMAILS: 'ada@example.com,mallory@example.com' }
    app = createFwApp()
    symlinkSync(join(checkout, 'node_modules/tsx'), join(app.dir, 'node_modules/tsx'), 'dir')
    expect((await app.fw(['make:auth'])).code).toBe(0)
    expect((await app.fw(['make:dash', 'Admin'])).code).toBe(0)
    app.write('database/migrations/20990101000000_create_posts_table.ts', POSTS_MIGRATION)
    // A policy of the app's own for posts, which the dashboard asks on each action: a locked post stays as it is.
    app.write('App/Models/Post.ts', POST_MODEL)
    app.write('App/Policies/PostPolicy.ts', POST_POLICY)
    app.write('public/index.ts', app.read('public/index.ts').replace("loadEnv()\n", `loadEnv()\n${REGISTER_POLICY}`).replace("import {", "import { Gate } from 'fw-runtime/authorization'\nimport { Post } from '#app/Models/Post.js'\nimport { PostPolicy } from '#app/Policies/PostPolicy.js'\nimport {"))
    const migrated = await app.fw(['migrate'], env)
    expect(migrated.stderr).toBe('')
    // Jobs run at dispatch until a test below keeps them in the database. APP_URL: registration mails a link built on it.
    app.write('.env', 'QUEUE_DRIVER=sync\nAPP_URL=http://app.example.test\n')
    server = await startApp(app.dir, env)
    admin = new Browser(server.url)
    someone = new Browser(server.url)
    mallory = new Browser(server.url)
    for (const [browser, name, email] of [[admin, 'Ada', 'ada@example.com'], [someone, 'Eve', 'eve@example.com'], [mallory, 'Mallory', 'mallory@example.com']] as const) {
      const registered = await browser.submit('/register', '/register', { name, email, password: 'correct horse battery staple', password_confirmation: 'correct horse battery staple' })
      expect(registered.status).toBe(303)
      // Registration signs no one in (email verification): each signs in with the password.
      const signedIn = await browser.submit('/login', '/login', { email, password: 'correct horse battery staple' })
      expect(signedIn.status).toBe(303)
      expect(browser.cookie('fw_session')).toBeDefined()
    }
    // Ada follows her verification link (fw admin:grant grants a verified address only).
    const db = createDatabase<{ users: { email: string; email_verified_at: unknown } }>(env.DATABASE_URL, app.dir)
    try {
      await db.updateTable('users').set({ email_verified_at: new Date().toISOString() }).where('email', '=', 'ada@example.com').execute()
    } finally {
      await db.destroy()
    }
    granted = await app.fw(['admin:grant', 'ada@example.com'], env)
  }, 60_000)

  afterAll(async () => {
    if (server && server.child.exitCode === null) {
      const exited = new Promise((resolve) => server.child.once('exit', resolve))
      server.child.kill('SIGTERM')
      await exited
    }
    app?.remove()
    stopDatabase?.()
  })

  /** Rows put in straight through the database, as other code of the application would. */
  async function insertPosts(rows: Record<string, unknown>[]): Promise<void> {
    const db = createDatabase<{ posts: Record<string, unknown> }>(env.DATABASE_URL, app.dir)
    try {
      await db.insertInto('posts').values(rows).execute()
    } finally {
      await db.destroy()
    }
  }

  it("stays out of the app's OpenAPI document, beside make:auth's operations", async () => {
    const document = (await (await fetch(`${server.url}/openapi.json`)).json()) as { paths: Record<string, unknown> }
    expect(Object.keys(document.paths)).toContain('/login')
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/admin'))).toEqual([])
  })

  it('sends a guest to sign in and a JSON client gets 401', async () => {
    const guest = new Browser(server.url)
    const page = await guest.get('/admin/tables/posts?q=x')
    expect(page.status).toBe(302)
    expect(page.headers.get('location')).toBe(`/login?redirect=${encodeURIComponent('/admin/tables/posts?q=x')}`)
    expect((await guest.get('/admin', 'application/json')).status).toBe(401)
  })

  it('lets in only the users fw admin:grant made admins, read from the database on each request (finding 3)', async () => {
    expect(granted).toEqual({ code: 0, stdout: 'ada@example.com is now an admin.\n', stderr: '' })
    expect((await admin.get('/admin')).status).toBe(200)
    // Mallory registered ADMIN_EMAILS's other address without proving she owns it: no rights from that.
    expect((await mallory.get('/admin')).status).toBe(403)
    expect((await mallory.get('/admin/tables/users')).status).toBe(403)

    // Her address is not verified: only --force grants it.
    expect((await app.fw(['admin:grant', 'mallory@example.com'], env)).code).toBe(1)
    expect((await app.fw(['admin:grant', 'mallory@example.com', '--force'], env)).code).toBe(0)
    expect((await mallory.get('/admin')).status).toBe(200)
    expect(await app.fw(['admin:revoke', 'mallory@example.com'], env)).toEqual({ code: 0, stdout: 'mallory@example.com is no longer an admin.\n', stderr: '' })
    expect((await mallory.get('/admin')).status).toBe(403)
  })

  it('answers a signed-in user who is not an admin 403, without naming any table', async () => {
    const page = await someone.get('/admin')
    expect(page.status).toBe(403)
    expect(page.headers.get('cache-control')).toBe('no-store')
    const body = await page.text()
    expect(body).toContain('eve@example.com')
    expect(body).not.toContain('posts')
    expect((await someone.get('/admin/tables/posts')).status).toBe(403)
    const json = await someone.get('/admin', 'application/json')
    expect(json.status).toBe(403)
    expect(await json.json()).toEqual({ error: 'Forbidden' })
  })

  it('shows the overview: tables with row counts, migrations, routes and versions, never the bookkeeping tables', async () => {
    const response = await admin.get('/admin')
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-store')
    const page = await response.text()
    expect(page).toMatch(/<a href="\/admin\/tables\/users">users<\/a><\/td><td class="num">3<\/td>/)
    expect(page).toMatch(/<a href="\/admin\/tables\/posts">posts<\/a><\/td><td class="num">0<\/td>/)
    // make:auth's three, the posts table, and make:dash's is_admin column on an app whose users table lacked it.
    expect(page).toContain(`${app.files('database/migrations').length} ran, 0 pending`)
    expect(page).toContain('<code>20990101000000_create_posts_table</code></td><td>Ran in batch 1')
    expect(page).toContain('<code>/admin/tables/{table}/rows/{id}/delete</code>')
    expect(page).toContain('TableController@destroy')
    expect(page).toContain(`<dt>Node.js</dt><dd>${process.version}</dd>`)
    expect(page).toContain('<dt>Application</dt><dd>fw-test-app')
    expect(page).toContain(`<dt>Database</dt><dd>${backend.name}</dd>`)
    expect(page).not.toMatch(/fw_migrations/)
    expect((await admin.get('/admin/tables/fw_migrations')).status).toBe(404)
  })

  it('says in the overview that jobs run at dispatch under QUEUE_DRIVER=sync, and how to keep them for workers', async () => {
    const page = await (await admin.get('/admin')).text()
    expect(page).toContain('<h2 id="queue-heading">Queue</h2>')
    expect(page).toContain(
      '<p>Jobs run at dispatch (<code>QUEUE_DRIVER=sync</code>): to keep them for workers, set <code>QUEUE_DRIVER=database</code> and run <code>fw queue:work</code>.</p>',
    )
  })

  it('with QUEUE_DRIVER=database in .env: shows a failed job with its error, and retries it from the overview', async () => {
    app.write('.env', 'QUEUE_DRIVER=database\n')
    const database = createDatabase<any>(env.DATABASE_URL, app.dir)
    // The app's queue, as a worker of the app sees it: SQLite's fw_jobs, or pg-boss on PostgreSQL.
    const jobs: StoredQueue = env.DATABASE_URL ? new PgBossQueue({ url: env.DATABASE_URL, database: () => database }) : new DatabaseQueue(() => database)
    const queued = await startApp(app.dir, env)
    try {
      // A job of the app that may run once, claimed by a worker and failed.
      const job = Object.defineProperty(class {}, 'name', { value: 'ResizeUpload' }) as never
      await jobs.push(pendingJob(job, { upload: 7 }, { attempts: 1 }))
      let claimed = await jobs.claim(['default'], 'test-worker')
      for (let tries = 0; !claimed && tries < 50; tries++) {
        await sleep(50)
        claimed = await jobs.claim(['default'], 'test-worker')
      }
      expect(await jobs.fail(claimed!, new TypeError('cannot read <upload> 7\n    at resize (App/Jobs/ResizeUpload.ts:9:11)'))).toBe('failed')
      const id = claimed!.id

      const ada = new Browser(queued.url)
      ada.copyCookies(admin)
      const overview = await (await ada.get('/admin')).text()
      const driver = backend.name === 'SQLite' ? 'database' : 'pgboss'
      expect(overview).toContain(`<p>Driver <code>${driver}</code>: 0 waiting, 0 running, 1 failed.</p>`)
      expect(overview).toMatch(new RegExp(`<tr><td><code>${id}</code></td><td>ResizeUpload</td><td>default</td><td class="num">1</td><td><time datetime="[^"]+">[^<]+</time></td><td>TypeError: cannot read &lt;upload&gt; 7</td>`))
      expect(overview).not.toContain('ResizeUpload.ts:9')
      expect(overview).toContain(`<form method="post" action="/admin/jobs/${id}/retry">`)

      // Neither a GET, nor a form without the CSRF token, nor a user who is no admin retries it.
      expect((await ada.get(`/admin/jobs/${id}/retry`)).status).toBe(405)
      expect((await ada.post(`/admin/jobs/${id}/retry`, {})).status).toBe(419)
      const eve = new Browser(queued.url)
      eve.copyCookies(someone)
      expect((await eve.submit('/me', `/admin/jobs/${id}/retry`, {})).status).toBe(403)
      expect(await jobs.counts()).toEqual({ waiting: 0, active: 0, failed: 1 })

      const retried = await ada.submit('/admin', `/admin/jobs/${id}/retry`, {})
      expect(retried.status).toBe(303)
      expect(retried.headers.get('location')).toBe('/admin')
      const after = await (await ada.get('/admin')).text()
      expect(after).toContain(`<p class="flash" role="status">Job ${id} is queued again.</p>`)
      expect(after).toContain(`<p>Driver <code>${driver}</code>: 1 waiting, 0 running, 0 failed.</p>`)
      expect(after).not.toContain('ResizeUpload')
      expect(await jobs.counts()).toEqual({ waiting: 1, active: 0, failed: 0 })

      const again = await ada.submit('/admin', `/admin/jobs/${id}/retry`, {})
      expect(again.status).toBe(303)
      expect(await (await ada.get('/admin')).text()).toContain(`<p class="flash" role="status">There is no failed job ${id}.</p>`)
      expect((await ada.submit('/admin', '/admin/jobs/999999/retry', {})).status).toBe(303)
      expect(await (await ada.get('/admin')).text()).toContain('<p class="flash" role="status">There is no failed job 999999.</p>')
      expect(await jobs.counts()).toEqual({ waiting: 1, active: 0, failed: 0 })

      // A unique job that failed while its twin waits is not queued again, and the notice says so.
      await jobs.flush()
      await sql`delete from ${sql.table(env.DATABASE_URL ? 'pgboss.job' : 'fw_jobs')}`.execute(database)
      await jobs.push(pendingJob(job, { upload: 8 }, { attempts: 1, uniqueKey: 'upload:8' }))
      let unique = await jobs.claim(['default'], 'test-worker')
      for (let tries = 0; !unique && tries < 50; tries++) {
        await sleep(50)
        unique = await jobs.claim(['default'], 'test-worker')
      }
      expect(await jobs.fail(unique!, new Error('the disk was full'))).toBe('failed')
      await jobs.push(pendingJob(job, { upload: 8 }, { uniqueKey: 'upload:8' }))
      expect((await ada.submit('/admin', `/admin/jobs/${unique!.id}/retry`, {})).status).toBe(303)
      expect(await (await ada.get('/admin')).text()).toContain(
        `<p class="flash" role="status">Job ${unique!.id} is not queued: the same unique job waits already, and will do its work.</p>`,
      )
      expect(await jobs.counts()).toEqual({ waiting: 1, active: 0, failed: 1 })
    } finally {
      const exited = new Promise((resolve) => queued.child.once('exit', resolve))
      queued.child.kill('SIGTERM')
      await exited
      rmSync(join(app.dir, '.env'))
      await jobs.close?.()
      await database.destroy()
    }
  })

  it('creates a row through the form: typed checks first, then a flash message shown once', async () => {
    const invalid = await admin.submit('/admin/tables/posts/create', '/admin/tables/posts', {
      'fields[title]': 'x'.repeat(21),
      'fields[views]': 'many',
      'fields[published]': '1',
      'fields[published_on]': '2024-13-45',
      'fields[rating]': 'high',
      'fields[meta]': '{not json',
    })
    expect(invalid.status).toBe(422)
    const form = await invalid.text()
    for (const message of [
      'Enter a whole number, such as 42.',
      'Enter a date as YYYY-MM-DD.',
      'Enter a number, such as 3.14.',
      'Enter valid JSON',
    ]) {
      expect(form).toContain(message)
    }
    expect(form).toContain('value="many"')

    // SQLite reports varchar(20) to introspection, so the form checks the length; PostgreSQL reports
    // only "varchar", and the database itself refuses the value, which the form shows.
    const long = await admin.submit('/admin/tables/posts/create', '/admin/tables/posts', { 'fields[title]': 'x'.repeat(21) })
    expect(long.status).toBe(422)
    expect(await long.text()).toContain(
      backend.name === 'SQLite' ? 'Use at most 20 characters (this has 21).' : 'The database refused the row: value too long for type character varying(20)',
    )

    const missing = await admin.submit('/admin/tables/posts/create', '/admin/tables/posts', { 'fields[title]': '' })
    expect(missing.status).toBe(422)
    expect(await missing.text()).toContain('title: This field is required.')

    const created = await admin.submit('/admin/tables/posts/create', '/admin/tables/posts', {
      'fields[title]': 'Hello dashboard',
      'fields[body]': '<script>alert("x")</script>',
      'fields[views]': '',
      'fields[published]': '1',
      'fields[published_on]': '2024-02-29',
      'fields[rating]': '4.5',
      'fields[meta]': '{"tags": ["a"]}',
    })
    expect(created.status).toBe(303)
    expect(created.headers.get('location')).toBe('/admin/tables/posts/rows/1')
    const row = await admin.get('/admin/tables/posts/rows/1')
    const view = await row.text()
    expect(view).toContain('<p class="flash" role="status">Created row 1 in posts.</p>')
    expect(view).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;')
    expect(view).not.toContain('<script>')
    expect(view).toMatch(/<dt>views <span class="muted">[^<]+<\/span><\/dt><dd>0<\/dd>/)
    expect(view).toMatch(/<dt>published <span class="muted">[^<]+<\/span><\/dt><dd><span class="bool">Yes<\/span><\/dd>/)
    expect(view).toContain('<time datetime="2024-02-29">2024-02-29</time>')
    expect(view).toMatch(/<pre>\{\n  &quot;tags&quot;: \[\n    &quot;a&quot;\n  \]\n\}<\/pre>/)
    expect(await (await admin.get('/admin/tables/posts/rows/1')).text()).not.toContain('class="flash"')
  })

  it('refuses a form without the CSRF token', async () => {
    const response = await admin.post('/admin/tables/posts', { 'fields[title]': 'forged' })
    expect(response.status).toBe(419)
    const list = await (await admin.get('/admin/tables/posts?q=forged')).text()
    expect(list).toContain('No row matches.')
  })

  it('searches any column ignoring case, with % and _ taken literally, and sorts by any column', async () => {
    await insertPosts([
      { title: 'Zebra 100%', views: 3 },
      { title: 'alpha_beta', views: 7 },
      { title: 'alphaXbeta', views: 5, body: 'NEEDLE in a haystack' },
    ])
    const titles = async (query: string) => column(await (await admin.get(`/admin/tables/posts${query}`)).text(), 2)
    expect(await titles('?q=needle')).toEqual(['alphaXbeta'])
    expect(await titles('?q=a_b')).toEqual(['alpha_beta'])
    expect(await titles('?q=100%25')).toEqual(['Zebra 100%'])
    expect(await titles('?sort=views&dir=desc')).toEqual(['alpha_beta', 'alphaXbeta', 'Zebra 100%', 'Hello dashboard'])
    expect(await titles('?sort=title')).toEqual(['Hello dashboard', 'Zebra 100%', 'alphaXbeta', 'alpha_beta'].sort((a, b) => (a < b ? -1 : 1)))
    // A sort column that is not one of the table's is ignored, never put into SQL.
    const injected = await admin.get(`/admin/tables/posts?sort=${encodeURIComponent('title; drop table posts --')}`)
    expect(injected.status).toBe(200)
    expect(await titles('')).toHaveLength(4)
  })

  it('pages through many rows', async () => {
    await insertPosts(Array.from({ length: 30 }, (_, i) => ({ title: `Bulk ${String(i).padStart(2, '0')}` })))
    const first = await (await admin.get('/admin/tables/posts')).text()
    expect(first).toContain('34 rows')
    expect(first).toContain('Page 1 of 2')
    expect(first).toContain('<a href="/admin/tables/posts?page=2" rel="next">Next</a>')
    const second = await (await admin.get('/admin/tables/posts?page=2')).text()
    expect(second.match(/Open<span class="visually-hidden">/g)).toHaveLength(9)
    expect(second).toContain('<a href="/admin/tables/posts?page=1" rel="prev">Previous</a>')
  })

  it('edits a row, and deletes it only after the confirmation page', async () => {
    const edit = await (await admin.get('/admin/tables/posts/rows/1/edit')).text()
    expect(edit).toContain('value="Hello dashboard"')
    expect(edit).toContain('<option value="1" selected>Yes</option>')
    const saved = await admin.submit('/admin/tables/posts/rows/1/edit', '/admin/tables/posts/rows/1', {
      'fields[title]': 'Hello again',
      'fields[body]': '',
      'fields[views]': '12',
      'fields[published]': '0',
      'fields[published_on]': '',
      'fields[rating]': '',
      'fields[meta]': '',
    })
    expect(saved.status).toBe(303)
    const view = await (await admin.get('/admin/tables/posts/rows/1')).text()
    expect(view).toContain('Saved row 1 of posts.')
    expect(view).toContain('Hello again')
    expect(view).toMatch(/<dt>body <span class="muted">[^<]+<\/span><\/dt><dd><span class="null">null<\/span><\/dd>/)
    expect(view).toContain('<span class="bool">No</span>')

    const confirm = await (await admin.get('/admin/tables/posts/rows/1/delete')).text()
    expect(confirm).toContain('Delete posts · row 1?')
    expect((await admin.get('/admin/tables/posts/rows/1')).status).toBe(200)
    const deleted = await admin.submit('/admin/tables/posts/rows/1/delete', '/admin/tables/posts/rows/1/delete', {})
    expect(deleted.status).toBe(303)
    expect(deleted.headers.get('location')).toBe('/admin/tables/posts')
    expect(await (await admin.get('/admin/tables/posts')).text()).toContain('Deleted row 1 from posts.')
    expect((await admin.get('/admin/tables/posts/rows/1')).status).toBe(404)
  })

  it('answers unknown tables and rows 404, and shows what the database refuses', async () => {
    expect((await admin.get('/admin/tables/nope')).status).toBe(404)
    expect((await admin.get('/admin/tables/posts/rows/999')).status).toBe(404)
    expect((await admin.get('/admin/tables/posts/rows/abc')).status).toBe(404)
    // users rows cannot be created here (their password is secret), so the unique email is tried by an edit.
    const duplicate = await admin.submit('/admin/tables/users/rows/2/edit', '/admin/tables/users/rows/2', {
      'fields[name]': 'Copy',
      'fields[email]': 'ada@example.com',
      'fields[is_admin]': '0',
    })
    expect(duplicate.status).toBe(422)
    expect(await duplicate.text()).toContain('The database refused the row:')
  })

  /** The users table as the database holds it, secrets included. */
  async function storedUsers(): Promise<Record<string, unknown>[]> {
    const db = createDatabase<{ users: Record<string, unknown> }>(env.DATABASE_URL, app.dir)
    try {
      return await db.selectFrom('users').selectAll().orderBy('id').execute()
    } finally {
      await db.destroy()
    }
  }

  it('never shows, searches, sorts by or edits a password hash (finding 7)', async () => {
    const list = await (await admin.get('/admin/tables/users')).text()
    expect(list).toContain('ada@example.com')
    expect(list).not.toContain('scrypt')
    expect(list).not.toContain('password_hash</a>')
    expect(await (await admin.get('/admin/tables/users?q=scrypt%24')).text()).toContain('No row matches.')
    expect(await (await admin.get('/admin/tables/users?q=password')).text()).toContain('No row matches.')
    const sorted = await (await admin.get('/admin/tables/users?sort=password_hash&dir=desc')).text()
    expect(sorted).not.toContain('aria-sort')
    expect(sorted).not.toContain('scrypt')

    const row = await (await admin.get('/admin/tables/users/rows/1')).text()
    expect(row).toContain('ada@example.com')
    expect(row).not.toContain('scrypt')
    const edit = await (await admin.get('/admin/tables/users/rows/1/edit')).text()
    expect(edit).toContain('value="ada@example.com"')
    expect(edit).not.toContain('password_hash]')
    expect(edit).not.toContain('scrypt')

    const before = await storedUsers()
    const saved = await admin.submit('/admin/tables/users/rows/1/edit', '/admin/tables/users/rows/1', {
      'fields[name]': 'Ada',
      'fields[email]': 'ada@example.com',
      'fields[is_admin]': '1',
      'fields[password_hash]': 'scrypt$1$1$1$forged$forged',
    })
    expect(saved.status).toBe(303)
    expect((await storedUsers())[0]!.password_hash).toBe(before[0]!.password_hash)
  })

  it('refuses to create a user, whose password only /register may set, and writes nothing', async () => {
    const form = await admin.get('/admin/tables/users/create')
    expect(form.status).toBe(403)
    expect(await form.text()).toContain('<a href="/register">')
    const before = await storedUsers()
    const token = /name="_token" value="([^"]+)"/.exec(await (await admin.get('/admin/tables/posts/create')).text())![1]!
    const created = await admin.post('/admin/tables/users', { _token: token, 'fields[name]': 'Mallory', 'fields[email]': 'm2@example.com', 'fields[password_hash]': 'x' })
    expect(created.status).toBe(403)
    expect(await storedUsers()).toEqual(before)
  })

  it('keeps the auth bookkeeping tables read-only: an access token cannot be forged (finding 8)', async () => {
    const list = await admin.get('/admin/tables/access_tokens')
    expect(list.status).toBe(200)
    expect(await list.text()).not.toContain('New row')
    expect((await admin.get('/admin/tables/access_tokens/create')).status).toBe(403)
    const token = /name="_token" value="([^"]+)"/.exec(await (await admin.get('/admin/tables/posts/create')).text())![1]!
    const forged = await admin.post('/admin/tables/access_tokens', {
      _token: token,
      'fields[user_id]': '1',
      'fields[token_hash]': 'a'.repeat(64),
      'fields[kind]': 'api',
      'fields[expires_at]': '2099-01-01 00:00:00',
    })
    expect([403, 405]).toContain(forged.status)
    const db = createDatabase<{ access_tokens: Record<string, unknown> }>(env.DATABASE_URL, app.dir)
    try {
      expect(await db.selectFrom('access_tokens').select('id').where('token_hash', '=', 'a'.repeat(64)).execute()).toEqual([])
    } finally {
      await db.destroy()
    }
    expect((await admin.post('/admin/tables/login_attempts', { _token: token, 'fields[key]': 'k', 'fields[attempts]': '0', 'fields[reset_at]': '0' })).status).toBe(403)
  })

  it('adds no detail of a failure to its pages in production, and keeps them private (finding 4)', async () => {
    const db = createDatabase<any>(env.DATABASE_URL, app.dir)
    // A view whose rows cannot be read: SQLite lets its table be dropped, PostgreSQL divides by zero.
    if (backend.name === 'SQLite') {
      await sql`create table gone (id integer)`.execute(db)
      await sql`create view broken as select id from gone`.execute(db)
      await sql`drop table gone`.execute(db)
    } else {
      await sql`create view broken as select 1 / (select count(*) from users where id < 0) as boom`.execute(db)
    }
    const production = await startApp(app.dir, { ...env, NODE_ENV: 'production' })
    try {
      const ada = new Browser(production.url)
      ada.copyCookies(admin)
      const page = await ada.get('/admin/tables/broken')
      expect(page.status).toBe(500)
      const body = await page.text()
      expect(body).not.toMatch(/no such table|division|gone|at .*\.(ts|js):\d+/i)
      expect(page.headers.get('cache-control')).toBe('no-store')
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
      const json = await ada.get('/admin/tables/broken', 'application/json')
      expect([json.status, await json.json()]).toEqual([500, { error: 'Internal Server Error' }])
    } finally {
      const exited = new Promise((resolve) => production.child.once('exit', resolve))
      production.child.kill('SIGTERM')
      await exited
      await sql`drop view broken`.execute(db)
      await db.destroy()
    }
  })

  it('shows a table added by a later migration without regenerating anything', async () => {
    app.write(
      'database/migrations/20990102000000_create_tags_table.ts',
      "import { id, type Kysely } from 'fw-runtime'\n\nexport async function up(db: Kysely<any>) {\n  await db.schema.createTable('tags').$call(id(db)).addColumn('label', 'text').execute()\n}\n",
    )
    expect((await (await admin.get('/admin')).text())).toContain(`${app.files('database/migrations').length - 1} ran, 1 pending`)
    const migrated = await app.fw(['migrate'], env)
    expect(migrated.stderr).toBe('')
    expect(migrated.code).toBe(0)
    const overview = await (await admin.get('/admin')).text()
    expect(overview).toContain('<a href="/admin/tables/tags">tags</a>')
    expect((await admin.get('/admin/tables/tags')).status).toBe(200)
  })

  it('asks the policy of a table’s model on each action, and shows its reason in the 403', async () => {
    await insertPosts([{ title: 'Locked' }, { title: 'Secret' }])
    const list = await (await admin.get('/admin/tables/posts?q=Locked')).text()
    const id = /\/admin\/tables\/posts\/rows\/(\d+)/.exec(list)![1]!
    const secret = /\/admin\/tables\/posts\/rows\/(\d+)/.exec(await (await admin.get('/admin/tables/posts?q=Secret')).text())![1]!
    expect((await admin.get(`/admin/tables/posts/rows/${id}`)).status).toBe(200)
    for (const path of [`/admin/tables/posts/rows/${id}/edit`, `/admin/tables/posts/rows/${id}/delete`, `/admin/tables/posts/rows/${secret}`]) {
      const page = await admin.get(path)
      expect(page.status, path).toBe(403)
      const body = await page.text()
      expect(body).toContain('<h1>Not allowed</h1>')
      expect(body).toContain(path.endsWith(secret) ? 'This post is secret' : 'This post is locked')
    }
    const deleted = await admin.submit(`/admin/tables/posts/rows/${id}`, `/admin/tables/posts/rows/${id}/delete`, {})
    expect(deleted.status).toBe(403)
    expect((await admin.get(`/admin/tables/posts/rows/${id}`)).status).toBe(200)
    // Its other rows change as before.
    expect((await admin.get(`/admin/tables/posts/rows/${secret}/edit`)).status).toBe(200)
  })
})
