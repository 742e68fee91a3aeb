import { execFile } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createFwApp, type FwApp } from '../support/fwApp.js'

const checkout = fileURLToPath(new URL('../../../', import.meta.url))

let app: FwApp
beforeEach(() => {
  app = createFwApp()
  app.write('.env', 'APP_KEY=secret\n')
  app.write('.env.example', 'APP_KEY=\n')
})
afterEach(() => app.remove())

const read = (path: string) => app.read(path)
const files = (folder: string) => app.files(folder)
/** Every file of the application outside node_modules, with its content. */
const snapshot = () => Object.fromEntries(files('.').filter((path) => !path.startsWith('node_modules')).map((path) => [path, read(path)]))
const count = (text: string, part: string) => text.split(part).length - 1

const DASHBOARD_FILES = [
  'App/Controllers/Admin/OverviewController.ts',
  'App/Controllers/Admin/TableController.ts',
  'App/Controllers/Admin/dashboard.ts',
  'App/Controllers/Admin/page.ts',
  'App/Middleware/adminDashboard.ts',
  'App/Policies/AdminPolicy.ts',
  'App/Views/Admin/confirmDelete.ts',
  'App/Views/Admin/errors.ts',
  'App/Views/Admin/layout.ts',
  'App/Views/Admin/overview.ts',
  'App/Views/Admin/row.ts',
  'App/Views/Admin/rowForm.ts',
  'App/Views/Admin/tableList.ts',
  'App/Views/Admin/urls.ts',
  'App/Views/Admin/values.ts',
  'public/css/admin.css',
  'routes/dash-admin.ts',
]

describe('fw make:dash without make:auth', () => {
  it('says to run make:auth first, in one line, and writes nothing', async () => {
    const before = snapshot()
    const result = await app.fw(['make:dash', 'Admin'])

    expect(result.code).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toBe('The Admin dashboard needs sign-in: run "fw make:auth" first, then "fw make:dash Admin"\n')
    expect(snapshot()).toEqual(before)
  })
})

/** The users migration as an older make:auth wrote it, with no is_admin column. */
function withoutIsAdmin(): void {
  const users = files('database/migrations').find((path) => path.endsWith('_create_users_table.ts'))!
  const migration = read(`database/migrations/${users}`)
  const stripped = migration.replace(/\n *\/\/ Admin rights[^\n]*\n *\.addColumn\('is_admin'[^\n]*/, '')
  expect(stripped).not.toContain('is_admin')
  app.write(`database/migrations/${users}`, stripped)
}

describe('fw make:dash after make:auth', () => {
  beforeEach(async () => {
    expect((await app.fw(['make:auth'])).code).toBe(0)
  })

  it('writes the dashboard and its own routes file imported by routes/web.ts; .env is left alone', async () => {
    const authMigrations = files('database/migrations')
    const result = await app.fw(['make:dash', 'Admin'])

    expect(result).toMatchObject({ code: 0, stderr: '' })
    for (const path of DASHBOARD_FILES) expect(result.stdout).toContain(`Created ${path}\n`)
    expect(result.stdout).toContain('Updated routes/web.ts\n')
    expect(result.stdout).not.toContain('.env')
    expect(files('.').filter((path) => /Admin|admin/.test(path) && !path.startsWith('database/'))).toEqual(DASHBOARD_FILES.slice().sort())
    // make:auth's users table has is_admin already: no migration of make:dash's own.
    expect(files('database/migrations')).toEqual(authMigrations)
    expect(result.stdout).not.toContain('is_admin')
    // The test starter's helper (tests/server.ts) is missing here, so no generated test either.
    expect(existsSync(join(app.dir, 'tests/Admin'))).toBe(false)

    expect(read('routes/web.ts').split('\n').filter((line) => line.startsWith('import'))).toEqual([
      "import { Route } from 'fw-runtime'",
      "import './auth.js'",
      "import './dash-admin.js'",
    ])
    const routes = read('routes/dash-admin.ts')
    const lines = routes.split('\n')
    const firstRoute = lines.findIndex((line) => line.startsWith('Route.'))
    for (const line of [
      "import { OverviewController as AdminOverviewController } from '#app/Controllers/Admin/OverviewController.js'",
      "import { TableController as AdminTableController } from '#app/Controllers/Admin/TableController.js'",
      "import { adminDashboard } from '#app/Middleware/adminDashboard.js'",
    ]) {
      expect(lines.indexOf(line)).toBeGreaterThan(-1)
      expect(lines.indexOf(line)).toBeLessThan(firstRoute)
    }
    expect(routes).toContain("Route.group({ prefix: '/admin', middleware: adminDashboard, excludeFromDocs: true }, () => {")
    expect(routes).toContain("Route.post('/tables/{table}/rows/{id}/delete', [AdminTableController, 'destroy'])")
    expect(routes).toContain("Route.post('/jobs/{id}/retry', [AdminOverviewController, 'retryJob'])")

    expect(read('App/Middleware/adminDashboard.ts')).toContain("export const adminDashboard: MiddlewareReference[] = ['session', auth, 'csrf', authorizeAdmin]")
    expect(read('App/Policies/AdminPolicy.ts')).toContain('export async function canUseAdmin(user: { id: number }): Promise<boolean> {')
    expect(read('App/Policies/AdminPolicy.ts')).not.toContain('ADMIN_EMAILS')
    expect(read('App/Controllers/Admin/dashboard.ts')).toContain('export const dashboard = new Dashboard({ db })')
    expect(read('App/Controllers/Admin/page.ts')).toContain("import { currentUser } from 'fw-runtime/auth'")
    for (const path of DASHBOARD_FILES) expect(read(path)).not.toMatch(/\{\{|\}\}/)
    // ADMIN_EMAILS granted the dashboard by an unverified address: admins are in the database now.
    expect(read('.env')).toBe('APP_KEY=secret\n')
    expect(read('.env.example')).toBe('APP_KEY=\n')
  })

  it('mounts a two-word name at its kebab-case path, with names of its own', async () => {
    expect((await app.fw(['make:dash', 'BackOffice'])).code).toBe(0)

    const routes = read('routes/dash-back-office.ts')
    // Its stylesheet is public/css/back-office.css, served as a public file: no controller, no route.
    expect(routes).not.toContain('Stylesheet')
    expect(read('App/Views/BackOffice/urls.ts')).toContain("stylesheet: () => '/css/back-office.css'")
    expect(routes).toContain("Route.group({ prefix: '/back-office', middleware: backOfficeDashboard, excludeFromDocs: true }, () => {")
    expect(read('App/Views/BackOffice/urls.ts')).toContain("export const base = '/back-office'")
    expect(read('App/Controllers/BackOffice/page.ts')).toContain("const FLASH = 'back_office_flash'")
    expect(existsSync(join(app.dir, 'public/css/back-office.css'))).toBe(true)
  })

  it('writes its test where the starter has the test server helper', async () => {
    app.write('tests/server.ts', 'export {}\n')

    const result = await app.fw(['make:dash', 'Admin'])

    expect(result.stdout).toContain('Created tests/Admin/dashboard.test.ts\n')
    const test = read('tests/Admin/dashboard.test.ts')
    expect(test).toContain("import { canUseAdmin } from '#app/Policies/AdminPolicy.js'")
    expect(test).toContain("fetch(`${server.url}/admin/tables/users?q=ada`")
  })

  it("passes strict tsc --noEmit with make:auth's files and the starter's tsconfig", async () => {
    // The starter's test helpers, which the generated tests import.
    for (const helper of ['server.ts', 'app.ts']) copyFileSync(join(checkout, `template/api/tests/${helper}`), join(app.dir, `tests/${helper}`))
    // …and what tests/app.ts sets the app up with, as in a new application.
    mkdirSync(join(app.dir, 'bootstrap'), { recursive: true })
    copyFileSync(join(checkout, 'template/api/bootstrap/app.ts'), join(app.dir, 'bootstrap/app.ts'))
    expect((await app.fw(['make:dash', 'Admin'])).code).toBe(0)
    symlinkSync(join(checkout, 'node_modules/vitest'), join(app.dir, 'node_modules/vitest'), 'dir')
    const config = JSON.parse(readFileSync(join(checkout, 'template/api/tsconfig.json'), 'utf8')) as { compilerOptions: Record<string, unknown> }
    // The types of node live in the checkout, not in this application's node_modules.
    config.compilerOptions.typeRoots = [join(checkout, 'node_modules/@types')]
    writeFileSync(join(app.dir, 'tsconfig.json'), JSON.stringify(config))

    const tsc = join(checkout, 'node_modules/typescript/bin/tsc')
    const result = await promisify(execFile)(process.execPath, [tsc, '--noEmit', '-p', '.'], { cwd: app.dir }).catch((error: { stdout: string }) => error)

    expect(result.stdout).toBe('')
    expect(files('tests')).toContain('Admin/dashboard.test.ts')
  }, 60_000)

  it('refuses a second run in one line, changing nothing; --force writes it again without doubling anything', async () => {
    withoutIsAdmin()
    await app.fw(['make:dash', 'Admin'])
    app.write('App/Policies/AdminPolicy.ts', '// edited\n')
    const before = snapshot()

    const again = await app.fw(['make:dash', 'Admin'])
    expect(again.code).toBe(1)
    expect(again.stderr).toBe('The Admin dashboard is already installed (see routes/dash-admin.ts); use --force to write it again\n')
    expect(snapshot()).toEqual(before)

    const forced = await app.fw(['make:dash', 'Admin', '--force'])
    expect(forced).toMatchObject({ code: 0, stderr: '' })
    expect(forced.stdout).toContain('Created routes/dash-admin.ts\n')
    expect(forced.stdout).not.toContain('Updated routes/web.ts')
    expect(forced.stdout).not.toContain('Updated .env')
    const routes = read('routes/web.ts')
    expect(count(routes, "import './dash-admin.js'")).toBe(1)
    expect(count(read('routes/dash-admin.ts'), "import { adminDashboard } from '#app/Middleware/adminDashboard.js'")).toBe(1)
    expect(count(routes, "import './auth.js'")).toBe(1)
    expect(routes).toBe(before['routes/web.ts'])
    expect(read('App/Policies/AdminPolicy.ts')).toContain('export async function canUseAdmin')
    expect(read('.env')).toBe('APP_KEY=secret\n')
    // The is_admin migration of the first run is there: no second one.
    expect(files('database/migrations').filter((path) => path.includes('is_admin'))).toHaveLength(1)
  })

  it('upgrades a dashboard made before fw-runtime/dash with --force, naming the files it no longer uses', async () => {
    await app.fw(['make:dash', 'Admin'])
    app.write('App/Controllers/Admin/schema.ts', 'export {}\n')
    app.write('App/Controllers/Admin/fields.ts', 'export {}\n')

    const forced = await app.fw(['make:dash', 'Admin', '--force'])

    expect(forced.code).toBe(0)
    expect(forced.stdout).toContain('No longer used (fw-runtime/dash does their work): App/Controllers/Admin/schema.ts, App/Controllers/Admin/fields.ts; delete them.\n')
  })

  it('writes the is_admin migration for the users table of an older make:auth, which lacks the column', async () => {
    withoutIsAdmin()
    const authMigrations = files('database/migrations')

    const result = await app.fw(['make:dash', 'Admin'])

    expect(result.code).toBe(0)
    const migrations = files('database/migrations')
    expect(migrations).toHaveLength(authMigrations.length + 1)
    expect(migrations.at(-1)).toMatch(/^\d{14}_add_is_admin_to_users_table\.ts$/)
    expect(result.stdout).toContain(`Created database/migrations/${migrations.at(-1)}\n`)
    expect(read(`database/migrations/${migrations.at(-1)}`)).toContain(".addColumn('is_admin', 'boolean', (column) => column.notNull().defaultTo(false))")
  })

  it('leaves an ADMIN_EMAILS that is already set alone (it grants nothing now)', async () => {
    app.write('.env', 'ADMIN_EMAILS=ada@example.com\n')

    await app.fw(['make:dash', 'Admin'])

    expect(read('.env')).toBe('ADMIN_EMAILS=ada@example.com\n')
  })

  it.each([
    ['admin', 'a lowercase first letter'],
    ['Admin/Users', 'a folder'],
    ['../Admin', 'a parent folder'],
    ['Ad-min', 'a dash'],
    ['class', 'a reserved word'],
  ])('refuses %j (%s) in one line and writes nothing', async (name) => {
    const before = snapshot()

    const result = await app.fw(['make:dash', name])

    expect(result.code).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr.trim().split('\n')).toHaveLength(1)
    expect(result.stderr).toContain('is not a valid dashboard name')
    expect(snapshot()).toEqual(before)
  })
})
