// fw make:dash in an installed application: its own tests and strict type check, then the dashboard
// driven by real headless Chromium (playwright-core, Debian's /usr/bin/chromium). Screenshots of the
// overview and of a table page, wide and at phone width, go to tests/screenshots/ (not committed).
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { createDatabase } from '../runtime/src/database/createDatabase.js'
import { startPostgres, type TestPostgres } from '../runtime/test/support/postgres.js'
import { installedApp, type InstalledApp } from './support/installedApp.js'
import { checkoutRoot, type RunningApp } from './support/process.js'

const CHROMIUM = '/usr/bin/chromium'
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]
const SCREENSHOTS = join(checkoutRoot, 'tests/screenshots')
const PASSWORD = 'correct horse battery staple'
const ADMIN = 'ada@example.com'

/** A table the dashboard has never seen: it must show up from introspection alone. */
const NOTES_MIGRATION = `import { id, timestamps, type Kysely } from 'fw-runtime'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('notes')
    .$call(id(db))
    .addColumn('title', 'varchar(100)', (column) => column.notNull())
    .addColumn('body', 'text')
    .addColumn('pinned', 'boolean', (column) => column.notNull().defaultTo(false))
    .addColumn('due_on', 'date')
    .$call(timestamps())
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('notes').execute()
}
`

let app: InstalledApp
let server: RunningApp
let browser: Browser

/**
 * Registers through the sign-up page in a context of its own, signs in (registration signs no one in: it mails a link to
 * verify the email), then forgets that session.
 */
async function register(name: string, email: string): Promise<void> {
  const context = await browser.newContext()
  const page = await context.newPage()
  await page.goto(`${server.url}/register`)
  await page.getByLabel('Name').fill(name)
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
  await page.getByLabel('Confirm password').fill(PASSWORD)
  await Promise.all([page.waitForURL(`${server.url}/login`), page.getByRole('button', { name: /register|sign up|create/i }).click()])
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(PASSWORD)
  await Promise.all([page.waitForURL(`${server.url}/me`), page.getByRole('button', { name: /sign in|log in/i }).click()])
  await context.close()
}

async function screenshot(page: Page, name: string): Promise<string> {
  const path = join(SCREENSHOTS, `${name}.png`)
  await page.screenshot({ path, fullPage: true })
  console.log(`screenshot: ${path}`)
  return path
}

describe('fw make:dash in an installed app, in Chromium', () => {
  let context: BrowserContext
  let page: Page

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true })
    app = await installedApp({ template: 'api' })
  })

  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  it('make:auth, make:dash Admin and migrate leave an app whose tests and strict type check pass', async () => {
    const refused = await app.run('npx', ['fw', 'make:dash', 'Admin'])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('run "fw make:auth" first')

    await app.runOk('npx', ['fw', 'make:auth'])
    const made = await app.runOk('npx', ['fw', 'make:dash', 'Admin'])
    expect(made.stdout).toContain('Created App/Controllers/Admin/TableController.ts')
    expect(made.stdout).toContain('Created tests/Admin/dashboard.test.ts')
    writeFileSync(join(app.dir, 'database/migrations/20990101000000_create_notes_table.ts'), NOTES_MIGRATION)
    // Admins are granted in the database (fw admin:grant), never by an address in .env.
    expect(readFileSync(join(app.dir, '.env'), 'utf8')).not.toMatch(/ADMIN_EMAILS/)
    await app.runOk('npx', ['fw', 'migrate'])

    const tests = await app.run('npm', ['test'])
    const output = (tests.stdout + tests.stderr).replace(/\x1b\[[0-9;]*m/g, '')
    expect(tests.code, output).toBe(0)
    expect(output).toMatch(/tests\/Admin\/dashboard\.test\.ts \(4 tests\)/)
    expect(output).toMatch(/Tests +\d+ passed \(\d+\)/)
    await app.runOk('npx', ['tsc', '--noEmit'])
  })

  it('sends a guest to sign in, and back to the dashboard afterwards', async () => {
    server = await app.start()
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS })
    await register('Ada', ADMIN)
    // Ada has not followed her verification link here: admin:grant refuses her until --force.
    expect((await app.run('npx', ['fw', 'admin:grant', ADMIN])).code).toBe(1)
    expect((await app.runOk('npx', ['fw', 'admin:grant', ADMIN, '--force'])).stdout).toContain(`${ADMIN} is now an admin, although the email is not verified (--force).`)
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    page = await context.newPage()

    await page.goto(`${server.url}/admin`)
    expect(new URL(page.url()).pathname).toBe('/login')
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/admin')

    await page.getByLabel('Email').fill(ADMIN)
    await page.getByLabel('Password').fill(PASSWORD)
    await Promise.all([page.waitForURL(`${server.url}/admin`), page.getByRole('button', { name: /sign in|log in/i }).click()])
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Overview')
  })

  it('shows the overview with the table made by the migration, and not the bookkeeping tables', async () => {
    const tables = page.getByRole('navigation', { name: 'Tables' })
    expect(await tables.getByRole('link').allTextContents()).toEqual(['access_tokens', 'login_attempts', 'notes', 'password_reset_tokens', 'tasks', 'users'])
    const overview = page.locator('section', { has: page.getByRole('heading', { name: 'Tables' }) })
    expect(await overview.getByRole('row', { name: /notes/ }).textContent()).toBe('notes0')
    const migrations = readdirSync(join(app.dir, 'database/migrations')).filter((file) => file.endsWith('.ts')).length
    expect(await page.getByText(`${migrations} ran, 0 pending`).count()).toBe(1)
    // GET (the list) and POST (a new row) share the path.
    expect(await page.getByRole('cell', { name: '/admin/tables/{table}', exact: true }).count()).toBe(2)
    expect(await page.content()).not.toContain('fw_migrations')
    await screenshot(page, 'overview')
  })

  it('creates a row through the form, showing a stored <script> as text', async () => {
    await Promise.all([page.waitForURL('**/admin/tables/notes'), page.getByRole('navigation', { name: 'Tables' }).getByRole('link', { name: 'notes' }).click()])
    await Promise.all([page.waitForURL('**/admin/tables/notes/create'), page.getByRole('link', { name: 'New row' }).click()])
    await page.getByLabel('title', { exact: true }).fill('Buy milk')
    await page.getByLabel('body', { exact: true }).fill('<script>window.injected = true</script> semi-skimmed, two litres')
    await page.getByLabel('pinned', { exact: true }).selectOption({ label: 'Yes' })
    await page.getByLabel('due_on', { exact: true }).fill('2030-05-17')
    await Promise.all([page.waitForURL('**/admin/tables/notes/rows/1'), page.getByRole('button', { name: 'Create' }).click()])

    expect(new URL(page.url()).pathname).toBe('/admin/tables/notes/rows/1')
    expect(await page.getByRole('status').textContent()).toBe('Created row 1 in notes.')
    expect(await page.getByText('<script>window.injected = true</script> semi-skimmed, two litres').count()).toBe(1)
    expect(await page.evaluate(() => (window as { injected?: boolean }).injected)).toBeUndefined()
    expect(await page.locator('main script').count()).toBe(0)
    expect(await page.locator('time[datetime="2030-05-17"]').textContent()).toBe('2030-05-17')

    // A second row, so that the table page has something to search among.
    await page.goto(`${server.url}/admin/tables/notes/create`)
    await page.getByLabel('title', { exact: true }).fill('Call the plumber')
    await Promise.all([page.waitForURL('**/admin/tables/notes/rows/2'), page.getByRole('button', { name: 'Create' }).click()])
    expect(await page.getByRole('status').textContent()).toBe('Created row 2 in notes.')
  })

  it('finds the row by search', async () => {
    await page.goto(`${server.url}/admin/tables/notes`)
    expect(await page.locator('table.rows tbody tr').count()).toBe(2)
    await page.getByLabel('Search').fill('MILK')
    await Promise.all([page.waitForURL('**/admin/tables/notes?q=MILK'), page.getByRole('button', { name: 'Search' }).click()])
    expect(new URL(page.url()).searchParams.get('q')).toBe('MILK')
    const rows = page.locator('table.rows tbody tr')
    expect(await rows.count()).toBe(1)
    expect(await rows.first().textContent()).toContain('Buy milk')
    expect(await rows.first().textContent()).toContain('<script>')
    await screenshot(page, 'table-notes')

    await page.getByLabel('Search').fill('nothing like this')
    await Promise.all([page.waitForURL('**/admin/tables/notes?q=nothing*'), page.getByRole('button', { name: 'Search' }).click()])
    expect(await page.getByText('No row matches.').count()).toBe(1)
  })

  it('edits the row', async () => {
    await page.goto(`${server.url}/admin/tables/notes?q=milk`)
    await Promise.all([page.waitForURL('**/admin/tables/notes/rows/1'), page.getByRole('link', { name: 'Open row 1' }).click()])
    await Promise.all([page.waitForURL('**/admin/tables/notes/rows/1/edit'), page.getByRole('link', { name: 'Edit' }).click()])
    expect(await page.getByLabel('title', { exact: true }).inputValue()).toBe('Buy milk')
    await page.getByLabel('title', { exact: true }).fill('Buy oat milk')
    await Promise.all([page.waitForURL('**/admin/tables/notes/rows/1'), page.getByRole('button', { name: 'Save' }).click()])

    expect(new URL(page.url()).pathname).toBe('/admin/tables/notes/rows/1')
    expect(await page.getByRole('status').textContent()).toBe('Saved row 1 of notes.')
    expect(await page.getByText('Buy oat milk', { exact: true }).count()).toBe(1)
  })

  it('is usable at phone width: nothing wider than the screen but the scrolling table box', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, storageState: await context.storageState() })
    const small = await phone.newPage()
    await small.goto(`${server.url}/admin/tables/notes`)
    expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    await screenshot(small, 'table-notes-phone')
    await phone.close()
  })

  it('deletes the row after asking', async () => {
    await page.goto(`${server.url}/admin/tables/notes/rows/1`)
    await Promise.all([page.waitForURL('**/admin/tables/notes/rows/1/delete'), page.getByRole('link', { name: 'Delete' }).click()])
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Delete notes · row 1?')
    expect(new URL(page.url()).pathname).toBe('/admin/tables/notes/rows/1/delete')
    await Promise.all([page.waitForURL('**/admin/tables/notes'), page.getByRole('button', { name: 'Delete row 1' }).click()])

    expect(new URL(page.url()).pathname).toBe('/admin/tables/notes')
    expect(await page.getByRole('status').textContent()).toBe('Deleted row 1 from notes.')
    expect(await page.locator('table.rows tbody tr').count()).toBe(1)
    const gone = await page.goto(`${server.url}/admin/tables/notes/rows/1`)
    expect(gone?.status()).toBe(404)
  })

  it('never puts a password hash on a page, and edits a user without a password field', async () => {
    await page.goto(`${server.url}/admin/tables/users`)
    expect(await page.content()).not.toContain('scrypt')
    await page.goto(`${server.url}/admin/tables/users?q=${encodeURIComponent('scrypt$')}`)
    expect(await page.getByText('No row matches.').count()).toBe(1)
    await page.goto(`${server.url}/admin/tables/users/rows/1/edit`)
    expect(await page.getByLabel('email', { exact: true }).inputValue()).toBe(ADMIN)
    expect(await page.locator('[name*="password"]').count()).toBe(0)
    expect(await page.content()).not.toContain('scrypt')
    await page.goto(`${server.url}/admin/tables/access_tokens`)
    expect(await page.getByRole('link', { name: 'New row' }).count()).toBe(0)
  })

  it('answers a signed-in user who is not an admin 403', async () => {
    await register('Eve', 'eve@example.com')
    const other = await browser.newContext()
    const eve = await other.newPage()
    await eve.goto(`${server.url}/login`)
    await eve.getByLabel('Email').fill('eve@example.com')
    await eve.getByLabel('Password').fill(PASSWORD)
    await Promise.all([eve.waitForURL(`${server.url}/me`), eve.getByRole('button', { name: /sign in|log in/i }).click()])

    const response = await eve.goto(`${server.url}/admin`)
    expect(response?.status()).toBe(403)
    expect(await eve.getByRole('heading', { level: 1 }).textContent()).toBe('Forbidden')
    expect(await eve.content()).not.toContain('notes')
    await other.close()
  })
})

describe('fw make:dash in an installed app on PostgreSQL', () => {
  let postgres: TestPostgres | undefined
  afterAll(() => postgres?.stop())

  it('make:auth, make:dash Admin and migrate leave an app whose tests and strict type check pass', async () => {
    const pgApp = await installedApp({ template: 'api' })
    postgres = await startPostgres()
    const env = { DATABASE_URL: postgres.url }
    await pgApp.runOk('npx', ['fw', 'make:auth'])
    await pgApp.runOk('npx', ['fw', 'make:dash', 'Admin'])
    await pgApp.runOk('npx', ['fw', 'migrate'], { env })
    // No user yet: granting fails in one line, and exits 1.
    const unknown = await pgApp.run('npx', ['fw', 'admin:grant', ADMIN], { env })
    expect([unknown.code, unknown.stderr.trim().split('\n').at(-1)]).toEqual([1, `fw admin:grant: no registered user has the email ${ADMIN} (they sign up at /register first)`])

    const tests = await pgApp.run('npm', ['test'], { env })
    const output = (tests.stdout + tests.stderr).replace(/\x1b\[[0-9;]*m/g, '')
    expect(tests.code, output).toBe(0)
    expect(output).toMatch(/tests\/Admin\/dashboard\.test\.ts \(4 tests\)/)
    // They ran on postgres_test beside the development database, which has no user of theirs; its workers' copies are gone.
    const server = createDatabase(postgres.url)
    try {
      const databases = await sql<{ datname: string }>`select datname from pg_database where datname like 'postgres%' order by datname`.execute(server)
      expect(databases.rows.map((row) => row.datname)).toEqual(['postgres', 'postgres_test'])
      expect((await sql<{ count: number }>`select count(*) as count from users`.execute(server)).rows).toEqual([{ count: 0 }])
    } finally {
      await server.destroy()
    }
    await pgApp.runOk('npx', ['tsc', '--noEmit'])
  })
})
