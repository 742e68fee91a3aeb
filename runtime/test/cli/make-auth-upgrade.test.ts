// fw make:auth --upgrade on an app made by the make:auth before password reset and remember me: its files as that
// make:auth wrote them are in fixtures/make-auth-before-reset.
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createDatabase } from '../../src/database/createDatabase.js'
import { createFwApp, type FwApp } from '../support/fwApp.js'

const before = fileURLToPath(new URL('../fixtures/make-auth-before-reset/', import.meta.url))
const NEW_FILES = [
  'App/Controllers/Auth/PasswordResetController.ts',
  'App/Views/auth/forgot-password.ts',
  'App/Views/auth/reset-password.ts',
  'App/Mail/ResetPasswordMail.ts',
  'App/Mail/PasswordChangedMail.ts',
  'tests/password-reset.test.ts',
]
const MINE = "// My own registration page.\nexport function registerPage(): string {\n  return '<form></form>'\n}\n"

let app: FwApp
beforeEach(() => {
  app = createFwApp()
})
afterEach(() => app.remove())

/** The app as the older make:auth left it, migrated: no reset files or table, its own registration page. */
async function olderApp(): Promise<void> {
  expect((await app.fw(['make:auth'])).code).toBe(0)
  for (const path of NEW_FILES) rmSync(join(app.dir, path))
  const folder = join(app.dir, 'database/migrations')
  for (const file of readdirSync(folder)) if (file.endsWith('_create_password_reset_tokens_table.ts')) rmSync(join(folder, file))
  app.write('routes/auth.ts', readFileSync(join(before, 'routes.ts.txt'), 'utf8'))
  app.write('App/Views/auth/login.ts', readFileSync(join(before, 'login.ts.txt'), 'utf8'))
  app.write('App/Controllers/Auth/LoginController.ts', readFileSync(join(before, 'LoginController.ts.txt'), 'utf8'))
  app.write('App/Views/auth/register.ts', MINE)
  const migrated = await app.fw(['migrate'])
  expect(migrated.stdout.match(/^Migrated {2}/gm)).toHaveLength(3)
}

describe('fw make:auth --upgrade', () => {
  it('writes the new migration and files, updates the files left as make:auth wrote them, and only tells about the others', async () => {
    await olderApp()

    const upgraded = await app.fw(['make:auth', '--upgrade'])

    expect(upgraded.stderr).toBe('')
    expect(upgraded.code).toBe(0)
    expect(upgraded.stdout).toMatch(/^Created database\/migrations\/\d{14}_create_password_reset_tokens_table\.ts$/m)
    for (const path of NEW_FILES) {
      expect(upgraded.stdout).toContain(`Created ${path}\n`)
      expect(existsSync(join(app.dir, path)), path).toBe(true)
    }
    for (const path of ['routes/auth.ts', 'App/Views/auth/login.ts', 'App/Controllers/Auth/LoginController.ts']) expect(upgraded.stdout).toContain(`Updated ${path}\n`)
    expect(app.read('routes/auth.ts')).toContain("Route.post('/forgot-password', [PasswordResetController, 'store'])")
    expect(app.read('App/Views/auth/login.ts')).toContain('<a href="/forgot-password">Forgot your password?</a>')
    expect(app.read('App/Controllers/Auth/LoginController.ts')).toContain('await signIn(request, user, { remember })')
    // Changed by its owner: left alone, with what to do.
    expect(app.read('App/Views/auth/register.ts')).toBe(MINE)
    expect(upgraded.stdout).toContain('Left App/Views/auth/register.ts as you changed it; to finish the upgrade, add a password field named password_confirmation ("Confirm password")\n')
    expect(upgraded.stdout).not.toContain('App/Controllers/Auth/RegisterController.ts')
    expect(upgraded.stdout.trimEnd().split('\n').at(-1)).toBe('Next: fw migrate')

    const migrated = await app.fw(['migrate'])
    expect(migrated.stderr).toBe('')
    expect(migrated.stdout.match(/^Migrated {2}.+$/gm)).toEqual([expect.stringMatching(/^Migrated {2}\d{14}_create_password_reset_tokens_table /)])
    const db = createDatabase(undefined, app.dir)
    try {
      expect((await db.introspection.getTables()).map((table) => table.name)).toContain('password_reset_tokens')
    } finally {
      await db.destroy()
    }

    // A second run finds nothing to write, and still says what is left to do.
    const again = await app.fw(['make:auth', '--upgrade'])
    expect(again.code).toBe(0)
    expect(again.stdout).not.toMatch(/^(Created|Updated) /m)
    expect(again.stdout).toContain('Left App/Views/auth/register.ts as you changed it')
  })

  it('says when there is nothing to do, and refuses without routes/auth.ts or with --force', async () => {
    expect((await app.fw(['make:auth'])).code).toBe(0)
    expect(await app.fw(['make:auth', '--upgrade'])).toEqual({ code: 0, stdout: 'Auth is up to date: nothing to do.\n', stderr: '' })

    expect((await app.fw(['make:auth', '--upgrade', '--force'])).stderr).toBe('--force and --upgrade do not go together: --upgrade keeps your files, --force writes them all again\n')
    rmSync(join(app.dir, 'routes/auth.ts'))
    const missing = await app.fw(['make:auth', '--upgrade'])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toBe('routes/auth.ts is missing: fw make:auth --upgrade upgrades an app where fw make:auth wrote it (run fw make:auth, or fw make:auth --force for an app whose auth routes are in routes/web.ts)\n')
  })
})
