// The reference application (tests/fixtures/shop/, see its README), deployed as users ship it: made in a new api app
// from the checkout with the generators and the fixture's files, its own tests and tsc passing, built once, then run
// from dist/ under `fw start --workers=2 --queue-workers=1 --scheduler` (QUEUE_DRIVER=database) on SQLite and on
// PostgreSQL, on a real-looking APP_URL (http://shop.example.test:<port>, which Chromium maps to 127.0.0.1), with its
// mail through a real SMTP server. Chromium walks registration, the verification link, sign-in, an order whose job
// mails a signed and an absolute link, a password reset, the scheduler's work (a row, and a CSV file the queue worker
// stores and the web workers serve), a count kept in the cache (the database store; Redis on PostgreSQL); then a code
// change, a build and SIGHUP must reach every kind of process. This is where subsystems meet: each new one joins this test.
import { existsSync, lstatSync, readFileSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { join } from 'node:path'
import { sql, type Kysely } from 'kysely'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDatabase } from '../runtime/src/database/createDatabase.js'
import { freePort } from '../runtime/test/support/freePort.js'
import { startPostgres, type TestPostgres } from '../runtime/test/support/postgres.js'
import { startRedis, type TestRedis } from '../runtime/test/support/redis.js'
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from '../runtime/test/support/smtpServer.js'
import { copyFixture } from './support/copyFixture.js'
import { installedApp, type InstalledApp } from './support/installedApp.js'
import { checkoutRoot, startServer, type RunningApp } from './support/process.js'
import { passesItsOwnChecks } from './support/shipped.js'

const FIXTURE = join(checkoutRoot, 'tests/fixtures/shop')
const HOST = 'shop.example.test'
const CHROMIUM = '/usr/bin/chromium'
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', `--host-resolver-rules=MAP ${HOST} 127.0.0.1`]
const PASSWORD = 'correct horse battery staple'
const NEW_PASSWORD = 'a brand new passphrase'
const TAGLINE = 'Fresh bread every morning'
const NEW_TAGLINE = 'Warm croissants at noon'
/** The generators a user runs before writing the shop's files (tests/fixtures/shop/README.md), in this order. */
const GENERATORS = [
  ['make:auth'],
  ['make:model', 'Product', '-m', '--factory'],
  ['make:model', 'Order', '-m'],
  ['make:model', 'StockReport', '-m'],
  ['make:seeder', 'DatabaseSeeder'],
  ['make:job', 'SendOrderConfirmation'],
  ['make:job', 'TakeStock'],
  ['make:mail', 'OrderConfirmationMail'],
  ['make:dash', 'Admin'],
]

let app: InstalledApp
let postgres: TestPostgres
let redis: TestRedis
let smtp: TestSmtpServer
let browser: Browser
/** The `fw start` of the database being walked; the reload step uses PostgreSQL's. */
let running: { server: RunningApp; appUrl: string; port: number; database: 'sqlite' | 'postgres' } | undefined
/** The customer of the last walk and the password it has now, for the reload step's order. */
let customer: { email: string; password: string } | undefined

/** Waits for `check` to give a value within `ms`, else fails with `what` and the server's output. */
async function eventually<T>(what: string, ms: number, check: () => Promise<T | undefined> | T | undefined): Promise<T> {
  const until = Date.now() + ms
  let last: unknown
  for (;;) {
    try {
      const value = await check()
      if (value !== undefined) return value
    } catch (error) {
      last = error
    }
    if (Date.now() > until) {
      throw new Error(`${what}: not within ${ms / 1000} s${last ? ` (last error: ${String(last)})` : ''}\n--- fw start output ---\n${running?.server.output() ?? ''}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

/** The mail to `email` whose subject matches, once the SMTP server has it; its body decoded (quoted-printable, HTML entities). */
async function mailTo(email: string, subject: RegExp, after = 0): Promise<string> {
  const mail = await eventually(`a mail to ${email} with a subject matching ${subject}`, 45_000, () =>
    smtp.received.slice(after).find((received) => received.to.includes(email) && subject.test(headerOf(received, 'Subject'))),
  )
  return decoded(mail)
}

function headerOf(mail: ReceivedMail, name: string): string {
  return new RegExp(`^${name}: (.*)$`, 'mi').exec(mail.raw)?.[1]?.trim() ?? ''
}

function decoded(mail: ReceivedMail): string {
  return mail.raw
    .replace(/=\r?\n/g, '')
    .replace(/(?:=[0-9A-F]{2})+/g, (run) => Buffer.from(run.replaceAll('=', ''), 'hex').toString('utf8'))
    .replaceAll('&amp;', '&')
}

/** The links of a mail on the app's URL, by path prefix. */
function link(body: string, path: string): string {
  const found = new RegExp(`${running!.appUrl.replaceAll('.', '\\.')}${path}[^\\s"<>]*`).exec(body)?.[0]
  if (!found) throw new Error(`No link to ${running!.appUrl}${path} in the mail:\n${body}`)
  return found
}

/** A GET to the running app on 127.0.0.1 with the Host a browser of APP_URL sends, on a connection of its own. */
function get(path: string): Promise<{ status: number; body: string }> {
  const { port } = running!
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, agent: false, headers: { Host: `${HOST}:${port}`, Accept: 'application/json' } }, (response) => {
      let body = ''
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk))
      response.on('end', () => resolve({ status: response.statusCode!, body }))
    })
    req.setTimeout(10_000, () => req.destroy(new Error(`GET ${path} did not answer within 10 s`)))
    req.on('error', reject).end()
  })
}

/** The newest stock report of the scheduled TakeStock job, or undefined before the first. */
async function latestStockReport(): Promise<{ id: number; note: string; products: number; created_at: string; csv: string } | undefined> {
  const { status, body } = await get('/api/stock-reports/latest')
  if (status === 404) return undefined
  expect(status, body).toBe(200)
  return (JSON.parse(body) as { report: { id: number; note: string; products: number; created_at: string; csv: string } }).report
}

/** Every job row at rest as text: SQLite's fw_jobs and its files (database and WAL), or every table of pg-boss's schema. */
async function jobsAtRest(): Promise<string> {
  if (running!.database === 'sqlite') {
    const file = join(app.dir, 'database/database.sqlite')
    const db = createDatabase(`sqlite:${file}`)
    try {
      const rows = await sql`select * from fw_jobs`.execute(db)
      const files = [file, `${file}-wal`].filter(existsSync).map((path) => readFileSync(path).toString('latin1'))
      return [JSON.stringify(rows.rows), ...files].join('\n')
    } finally {
      await db.destroy()
    }
  }
  const db = createDatabase(postgres.url)
  try {
    const tables = await sql<{ table_name: string }>`select table_name from information_schema.tables where table_schema = 'pgboss'`.execute(db)
    const dumps: string[] = []
    for (const { table_name } of tables.rows) {
      const rows = await sql<{ row: string }>`select t::text as row from ${sql.table(`pgboss.${table_name}`)} t`.execute(db)
      dumps.push(`${table_name}: ${rows.rows.map((row) => row.row).join('\n')}`)
    }
    expect(dumps.join('\n'), 'pg-boss has no job table').toMatch(/^job: /m)
    return dumps.join('\n')
  } finally {
    await db.destroy()
  }
}

/** `fw start` of the build with queue workers and the scheduler, on a port of its own, its APP_URL on HOST. */
async function startShop(database: 'sqlite' | 'postgres'): Promise<void> {
  const port = await freePort()
  const appUrl = `http://${HOST}:${port}`
  const server = await startServer(join(app.dir, 'node_modules/.bin/fw'), ['start', '--workers=2', '--queue-workers=1', '--scheduler'], {
    cwd: app.dir,
    env: {
      PORT: String(port),
      APP_URL: appUrl,
      QUEUE_DRIVER: 'database',
      MAIL_MAILER: 'smtp',
      MAIL_URL: smtp.url,
      MAIL_FROM: 'The Shop <shop@example.test>',
      // On PostgreSQL the cache (and its locks) are on Redis, as an app that outgrows one machine has them.
      ...(database === 'postgres' ? { DATABASE_URL: postgres.url, CACHE_STORE: 'redis', REDIS_URL: redis.url } : {}),
    },
  })
  running = { server, appUrl, port, database }
}

async function stopShop(): Promise<void> {
  const stopping = running
  running = undefined
  customer = undefined
  await stopping?.server.stop()
}

/** Submits the form of `button` and waits for the page it leads to; fails with the page's text when it leads elsewhere. */
async function submit(page: Page, button: RegExp, expected: string): Promise<void> {
  const [response] = await Promise.all([page.waitForNavigation({ timeout: 20_000 }), page.getByRole('button', { name: button }).click()])
  const at = new URL(page.url()).pathname
  if (at !== expected) throw new Error(`${button} led to ${at} (${response?.status()}), not ${expected}:\n${await page.locator('body').innerText()}`)
}

async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto(`${running!.appUrl}/login`)
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await submit(page, /sign in/i, '/me')
}

/** Buys the loaf on /shop and returns the body of the confirmation mail that the queue worker sent. */
async function buyLoaf(page: Page, email: string): Promise<{ orderId: number; mail: string }> {
  await page.goto(`${running!.appUrl}/shop`)
  const before = smtp.received.length
  await submit(page, /buy sourdough loaf/i, '/shop')
  const notice = await page.getByRole('status').innerText()
  const orderId = Number(/order #(\d+)/.exec(notice)?.[1])
  expect(orderId, notice).toBeGreaterThan(0)
  return { orderId, mail: await mailTo(email, new RegExp(`^Your order #${orderId}$`), before) }
}

/**
 * The walk of issue 37 in Chromium, against the running `fw start`: registration, verification, sign-in, an order and
 * its links, a password reset (no plain token at rest), the dashboard, and the scheduler's stock report.
 */
async function walk(email: string): Promise<void> {
  const { appUrl, database } = running!
  const startedAt = Date.now()
  const mailsBefore = smtp.received.length
  const fw = (args: string[]) => app.runOk('npx', ['fw', ...args], { env: database === 'postgres' ? { DATABASE_URL: postgres.url } : {} })

  // Registration: a 303 to /login, and the verification mail over SMTP, its link on APP_URL.
  const context = await browser.newContext()
  customer = { email, password: PASSWORD }
  const page = await context.newPage()
  await page.goto(`${appUrl}/register`)
  await page.getByLabel('Name').fill('Ada')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
  await page.getByLabel('Confirm password').fill(PASSWORD)
  await submit(page, /register/i, '/login')
  const verification = link(await mailTo(email, /^Verify your email address$/, mailsBefore), '/email/verify/')
  const verified = await page.goto(verification)
  expect(verified?.status(), 'the verification link').toBe(200)
  expect(await page.locator('body').innerText()).toMatch(/verified/i)

  // Sign-in, then an order: the controller stores it and dispatches its mail's job in one transaction; the queue
  // worker builds a signed and an absolute link on APP_URL and sends the mail.
  await signIn(page, email, PASSWORD)
  const account = await page.locator('body').innerText()
  expect(account).toMatch(/verified/i)
  expect(account).not.toMatch(/not verified/i)
  await page.goto(`${appUrl}/shop`)
  expect(await page.locator('#tagline').innerText()).toBe(TAGLINE)
  const { orderId, mail } = await buyLoaf(page, email)
  expect(mail).toContain(TAGLINE)
  const receipt = link(mail, `/orders/${orderId}/receipt?`)
  expect(new URL(receipt).searchParams.get('signature'), receipt).toMatch(/^\S+$/)
  const shop = link(mail, '/shop')
  expect(shop).toBe(`${appUrl}/shop`)

  // The links open: the receipt for anyone (a browser that never signed in), the shop for the customer; a receipt
  // link with a changed order is refused.
  const stranger = await browser.newContext()
  try {
    const receiptPage = await stranger.newPage()
    const opened = await receiptPage.goto(receipt)
    expect(opened?.status(), 'the signed receipt link').toBe(200)
    expect(await receiptPage.locator('body').innerText()).toContain('1 × Sourdough loaf: €4.50')
    const tampered = await receiptPage.goto(receipt.replace(`/orders/${orderId}/`, `/orders/${orderId + 1000}/`))
    expect(tampered?.status(), 'a receipt link with another order').toBe(403)
    const forged = await receiptPage.goto(receipt.replace(/signature=([^&])/, (_, first: string) => `signature=${first === 'A' ? 'B' : 'A'}`))
    expect(forged?.status(), 'a receipt link with a changed signature').toBe(403)
  } finally {
    await stranger.close()
  }
  const shopPage = await page.goto(shop)
  expect(shopPage?.status(), 'the absolute link to the shop').toBe(200)
  expect(new URL(page.url()).pathname).toBe('/shop')

  // The order by its id: route model binding loads it (404 when there is none), OrderPolicy shows it to its customer
  // only (403 for another customer's, made with fw tinker), and the named limiter `orders` counts each read.
  const mine = await page.goto(`${appUrl}/orders/${orderId}`)
  expect([mine?.status(), JSON.parse(await page.locator('body').innerText())]).toEqual([200, { order: { id: orderId, product_id: expect.any(Number), quantity: 1 } }])
  expect(mine?.headers()['x-ratelimit-limit'], 'the orders limiter').toBe('30')
  const made = await fw(['tinker', '--execute', `const order = await Order.findOrFail(${orderId}); const other = await User.factory().create(); (await Order.forceCreate({ user_id: other.id, product_id: order.product_id, quantity: 2 })).id`])
  const othersOrder = Number(made.stdout.trim().split('\n').at(-1))
  expect(othersOrder, made.stdout).toBeGreaterThan(orderId)
  const theirs = await page.goto(`${appUrl}/orders/${othersOrder}`)
  expect(theirs?.status(), "another customer's order").toBe(403)
  expect(await page.locator('body').innerText()).toContain('This order is not yours.')
  const missing = await page.goto(`${appUrl}/orders/${othersOrder + 1000}`)
  expect(missing?.status(), 'an order that does not exist').toBe(404)

  // make:dash: the verified customer made admin opens the overview, which sees the shop's tables.
  await fw(['admin:grant', email])
  const admin = await page.goto(`${appUrl}/admin`)
  expect(admin?.status(), 'the dashboard').toBe(200)
  expect(await page.locator('body').innerText()).toMatch(/stock_reports/)

  // The scheduler queues TakeStock every ten seconds: a report of this run, with the shop's six products.
  const report = await eventually('a stock report written by the scheduled TakeStock job during this walk', 45_000, async () => {
    const latest = await latestStockReport()
    return latest && Date.parse(latest.created_at) >= startedAt ? latest : undefined
  })
  expect(report).toMatchObject({ products: 6, note: TAGLINE, csv: `/storage/stock-reports/${report.id}.csv` })
  // The queue worker writes the report's CSV on the local disk as public, just after its row; a web worker serves it
  // through public/storage (fw storage:link).
  const csv = `products,note\n6,"${TAGLINE}"\n`
  await eventually(`GET ${report.csv} giving the report's CSV`, 10_000, async () => {
    const got = await get(report.csv)
    if (got.body !== csv) throw new Error(`${got.status} ${got.body.slice(0, 200)}`)
    return true
  })

  // The cache (the database store on SQLite, Redis on PostgreSQL) is shared by both web workers: GET /api/products
  // counts its views with cache().increment, and answers on connections of their own (spread over the workers) count
  // on from one another, where a per-process cache would repeat numbers.
  const views: number[] = []
  for (let i = 0; i < 8; i++) views.push((JSON.parse((await get('/api/products')).body) as { views: number }).views)
  expect(views, 'views counted by cache().increment across both workers').toEqual(views.map((_, i) => views[0]! + i))

  // Forgot password, from a browser that is signed out: the mail's link is reset in Chromium, by the reset page's form.
  const guest = await browser.newContext()
  try {
    const resetPage = await guest.newPage()
    await resetPage.goto(`${appUrl}/forgot-password`)
    await resetPage.getByLabel('Email').fill(email)
    const before = smtp.received.length
    await submit(resetPage, /email me a reset link/i, '/forgot-password')
    const queued = await jobsAtRest()
    const resetLink = link(await mailTo(email, /^Reset your password$/, before), '/reset-password/')
    const token = /\/reset-password\/([A-Za-z0-9_-]{43})\?/.exec(resetLink)?.[1]
    expect(token, resetLink).toBeDefined()
    // Soft: the walk goes on to the reset itself whatever these find.
    expect.soft(queued.includes(token!), `the reset token in plain text in the ${database} jobs (as queued)`).toBe(false)
    expect.soft((await jobsAtRest()).includes(token!), `the reset token in plain text in the ${database} jobs (once sent)`).toBe(false)

    const opened = await resetPage.goto(resetLink)
    expect(opened?.status(), 'the reset link').toBe(200)
    await resetPage.getByLabel('New password').fill(NEW_PASSWORD)
    await resetPage.getByLabel('Confirm password').fill(NEW_PASSWORD)
    await submit(resetPage, /reset password/i, '/login')
    customer.password = NEW_PASSWORD
    await signIn(resetPage, email, NEW_PASSWORD)
  } finally {
    await guest.close()
  }

  await context.close()
  expect(running!.server.output(), 'fw start printed an error').not.toMatch(/Error:|uncaught|failed/i)
}

describe('the reference application (tests/fixtures/shop) deployed as users ship it', () => {
  beforeAll(async () => {
    ;[app, postgres, redis, smtp, browser] = await Promise.all([
      installedApp({ template: 'api' }),
      startPostgres(),
      startRedis(),
      startSmtpServer(),
      chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS }),
    ])
  })
  afterAll(async () => {
    await stopShop()
    await browser?.close()
    await smtp?.close()
    await postgres?.stop()
    await redis?.stop()
  })

  it('is made with the generators and the fixture, migrates on both databases, passes its own tests and tsc, and builds', async () => {
    const fw = (args: string[], env: Record<string, string> = {}) => app.runOk('npx', ['fw', ...args], { env })
    for (const args of GENERATORS) await fw(args)
    copyFixture(app.dir, FIXTURE, 'shop')

    await fw(['migrate'])
    await fw(['db:seed'])
    const schemaFile = join(app.dir, 'database/schema.d.ts')
    const sqliteSchema = readFileSync(schemaFile, 'utf8')
    await fw(['migrate'], { DATABASE_URL: postgres.url })
    await fw(['db:seed'], { DATABASE_URL: postgres.url })
    // The README's promise: the same bytes from either database, so that CI on PostgreSQL checks files committed
    // from SQLite (soft, and the app goes on with SQLite's, as a project that commits them from SQLite does).
    expect.soft(readFileSync(schemaFile, 'utf8'), 'database/schema.d.ts as fw migrate wrote it on PostgreSQL, against SQLite\'s').toBe(sqliteSchema)
    writeFileSync(schemaFile, sqliteSchema)
    await fw(['types'])
    const tests = await passesItsOwnChecks(app)
    expect(tests).toMatch(/tests\/shop\.test\.ts \(4 tests\)/)
    await app.runOk('npm', ['run', 'build'])
    expect(existsSync(join(app.dir, 'dist/bootstrap/schedule.js')), 'the build has the schedule').toBe(true)
    // A deploy step: public/storage serves the local disk's public files (TakeStock's CSV).
    await fw(['storage:link'])
    expect(lstatSync(join(app.dir, 'public/storage')).isSymbolicLink(), 'fw storage:link made public/storage').toBe(true)
  })

  it('walks in Chromium on SQLite: registration, verification, sign-in, an order\'s mail and links, a reset, the schedule', async () => {
    await startShop('sqlite')
    try {
      await walk('ada@example.com')
    } finally {
      await stopShop()
    }
  })

  it('walks the same on PostgreSQL, with the cache on Redis', async () => {
    await startShop('postgres')
    await walk('ada@example.com')
  })

  it('after a code change, npm run build and SIGHUP, the web workers, the queue worker and the scheduler all run the new code', async () => {
    expect(running?.database, 'the PostgreSQL walk left fw start running').toBe('postgres')
    const taglineFile = join(app.dir, 'App/tagline.ts')
    writeFileSync(taglineFile, readFileSync(taglineFile, 'utf8').replace(TAGLINE, NEW_TAGLINE))
    await app.runOk('npm', ['run', 'build'])
    const lastReport = (await latestStockReport())?.id ?? 0
    const { server } = running!
    const replaced = server.output().split('[fw] every worker replaced').length
    process.kill(server.pid, 'SIGHUP')
    await eventually('fw start replacing its workers after SIGHUP', 60_000, () => (server.output().split('[fw] every worker replaced').length > replaced ? true : undefined))
    const reloadedAt = Date.now()

    // Each kind of process is checked whatever the one before showed (expect.soft), so that a failure names every
    // kind still on the old code.
    // Web workers: every answer, each on a connection of its own (so spread over both workers), says the new line.
    const taglines = new Set<string>()
    for (let i = 0; i < 10; i++) taglines.add((JSON.parse((await get('/api/products')).body) as { tagline: string }).tagline)
    expect.soft([...taglines], 'the web workers after SIGHUP').toEqual([NEW_TAGLINE])

    // The scheduler: the note of TakeStock's payload comes from the schedule (bootstrap/schedule.ts), so a report
    // queued after the reload says the new line only if the scheduler runs the new build. A job the old scheduler
    // queued just before SIGHUP may run after it: wait for one written a while after the web workers were replaced.
    const report = await eventually('a stock report written after SIGHUP', 45_000, async () => {
      const latest = await latestStockReport()
      return latest && latest.id > lastReport && Date.parse(latest.created_at) > reloadedAt + 5_000 ? latest : undefined
    })
    expect.soft(report.note, 'the stock report of the scheduled job after SIGHUP').toBe(NEW_TAGLINE)

    // The queue worker: an order placed now is mailed with the new line (signed in afresh: the reset signed the
    // walk's sessions out).
    const context = await browser.newContext()
    const page = await context.newPage()
    await signIn(page, customer!.email, customer!.password)
    await page.goto(`${running!.appUrl}/shop`)
    expect.soft(await page.locator('#tagline').innerText(), 'the shop page after SIGHUP').toBe(NEW_TAGLINE)
    const { mail } = await buyLoaf(page, customer!.email)
    expect.soft(mail, 'the mail the queue worker sent after SIGHUP').toContain(NEW_TAGLINE)
    await context.close()
    expect(running!.server.output(), 'fw start printed an error').not.toMatch(/Error:|uncaught|failed/i)
  })
})
