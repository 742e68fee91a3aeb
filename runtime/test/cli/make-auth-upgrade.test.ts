// fw make:auth --upgrade on an app made by an older make:auth: the one before password reset and remember me (its files
// as it wrote them are in fixtures/make-auth-before-reset), the one before email verification
// (fixtures/make-auth-before-verify), and the one before notices had a style of their own (fixtures/make-auth-before-notices).
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Kysely } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createDatabase } from '../../src/database/createDatabase.js'
import { createFwApp, type FwApp } from '../support/fwApp.js'

const before = fileURLToPath(new URL('../fixtures/make-auth-before-reset/', import.meta.url))
const beforeVerify = fileURLToPath(new URL('../fixtures/make-auth-before-verify/', import.meta.url))
const beforeNotices = fileURLToPath(new URL('../fixtures/make-auth-before-notices/', import.meta.url))
/** The files make:auth wrote before notices had a style of their own that it writes otherwise now, and their fixture. */
const BEFORE_NOTICES: Record<string, string> = {
  'App/Views/auth/login.ts': 'login.ts.txt',
  'App/Controllers/Auth/LoginController.ts': 'LoginController.ts.txt',
  'App/Views/auth/me.ts': 'me.ts.txt',
  'public/css/app.css': 'app.css.txt',
}
/** What make:auth writes since email verification. */
const VERIFY_FILES = [
  'App/Controllers/Auth/EmailVerificationController.ts',
  'App/Views/auth/verify-email.ts',
  'App/Mail/VerifyEmailMail.ts',
  'App/Mail/AlreadyRegisteredMail.ts',
  'tests/email-verification.test.ts',
]
/** The files make:auth wrote before email verification that it writes otherwise now, and their fixture. */
const BEFORE_VERIFY: Record<string, string> = {
  'routes/auth.ts': 'routes.ts.txt',
  'App/Controllers/Auth/RegisterController.ts': 'RegisterController.ts.txt',
  'App/Controllers/Auth/MeController.ts': 'MeController.ts.txt',
  'App/Controllers/Auth/PasswordController.ts': 'PasswordController.ts.txt',
  'App/Views/auth/me.ts': 'me.ts.txt',
  'tests/authClient.ts': 'authClient.ts.txt',
  'tests/auth.test.ts': 'auth.test.ts.txt',
  'tests/password-reset.test.ts': 'password-reset.test.ts.txt',
}
const NEW_FILES = [
  'App/Controllers/Auth/PasswordResetController.ts',
  'App/Views/auth/forgot-password.ts',
  'App/Views/auth/reset-password.ts',
  'App/Mail/ResetPasswordMail.ts',
  'App/Mail/PasswordChangedMail.ts',
  'tests/password-reset.test.ts',
]
const checkoutStubs = fileURLToPath(new URL('../../../generators/make-auth/stubs/', import.meta.url))
const MINE = "// My own registration page.\nexport function registerPage(): string {\n  return '<form></form>'\n}\n"

let app: FwApp
beforeEach(() => {
  app = createFwApp()
})
afterEach(() => app.remove())

/** Removes the migration of that name, as an older make:auth did not write it. */
function withoutMigration(name: string): void {
  const folder = join(app.dir, 'database/migrations')
  for (const file of readdirSync(folder)) if (file.endsWith(`_${name}.ts`)) rmSync(join(folder, file))
}

/** The app as the make:auth before email verification left it: its files, and no email_verified_at migration. */
async function appBeforeVerification(): Promise<void> {
  expect((await app.fw(['make:auth'])).code).toBe(0)
  for (const path of VERIFY_FILES) rmSync(join(app.dir, path))
  withoutMigration('add_email_verified_at_to_users_table')
  for (const [path, fixture] of Object.entries(BEFORE_VERIFY)) app.write(path, readFileSync(join(beforeVerify, fixture), 'utf8'))
}

/** The app as the older make:auth left it, migrated: no reset files or table, its own registration page. */
async function olderApp(): Promise<void> {
  await appBeforeVerification()
  for (const path of NEW_FILES) rmSync(join(app.dir, path))
  withoutMigration('create_password_reset_tokens_table')
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
    expect(upgraded.stdout).toMatch(/^Created database\/migrations\/\d{14}_add_email_verified_at_to_users_table\.ts$/m)
    for (const path of [...NEW_FILES, ...VERIFY_FILES]) {
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
    // As the make:auth before email verification wrote it: updated, with nothing to tell.
    expect(upgraded.stdout).not.toContain('Left App/Controllers/Auth/RegisterController.ts')
    expect(upgraded.stdout).toContain('Updated App/Controllers/Auth/RegisterController.ts\n')
    expect(upgraded.stdout.trimEnd().split('\n').at(-1)).toBe('Next: fw migrate')

    const migrated = await app.fw(['migrate'])
    expect(migrated.stderr).toBe('')
    expect(migrated.stdout.match(/^Migrated {2}.+$/gm)).toEqual([
      expect.stringMatching(/^Migrated {2}\d{14}_create_password_reset_tokens_table /),
      expect.stringMatching(/^Migrated {2}\d{14}_add_email_verified_at_to_users_table /),
    ])
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

  it('brings an app made before email verification up to it: its users count as verified, new ones verify', async () => {
    await appBeforeVerification()
    app.write('App/Views/auth/me.ts', MINE)
    expect((await app.fw(['migrate'])).stdout.match(/^Migrated {2}/gm)).toHaveLength(4)
    const db: Kysely<any> = createDatabase(undefined, app.dir)
    try {
      await db.insertInto('users').values({ name: 'Ada', email: 'ada@example.com', password_hash: 'scrypt$x' }).execute()

      const upgraded = await app.fw(['make:auth', '--upgrade'])

      expect(upgraded.stderr).toBe('')
      expect(upgraded.code).toBe(0)
      expect(upgraded.stdout).toMatch(/^Created database\/migrations\/\d{14}_add_email_verified_at_to_users_table\.ts$/m)
      for (const path of VERIFY_FILES) expect(upgraded.stdout).toContain(`Created ${path}\n`)
      for (const path of Object.keys(BEFORE_VERIFY).filter((path) => path !== 'App/Views/auth/me.ts')) {
        expect(upgraded.stdout).toContain(`Updated ${path}\n`)
        expect(app.read(path), path).toBe(readFileSync(join(checkoutStubs, path === 'routes/auth.ts' ? 'routes.stub' : `${path}.stub`), 'utf8'))
      }
      expect(app.read('App/Views/auth/me.ts')).toBe(MINE)
      expect(upgraded.stdout).toContain('Left App/Views/auth/me.ts as you changed it; to finish the upgrade, show whether the email is verified')
      expect(upgraded.stdout.trimEnd().split('\n').at(-1)).toBe('Next: fw migrate')

      const migrated = await app.fw(['migrate'])
      expect(migrated.stderr).toBe('')
      expect(migrated.stdout.match(/^Migrated {2}.+$/gm)).toEqual([expect.stringMatching(/^Migrated {2}\d{14}_add_email_verified_at_to_users_table /)])
      const ada = await db.selectFrom('users').select('email_verified_at').where('email', '=', 'ada@example.com').executeTakeFirstOrThrow()
      expect(ada.email_verified_at).not.toBeNull()
    } finally {
      await db.destroy()
    }
  })

  it('brings an app made before notices had a style of their own up to it, files left as make:auth wrote them', async () => {
    expect((await app.fw(['make:auth'])).code).toBe(0)
    for (const [path, fixture] of Object.entries(BEFORE_NOTICES)) app.write(path, readFileSync(join(beforeNotices, fixture), 'utf8'))

    const upgraded = await app.fw(['make:auth', '--upgrade'])

    expect([upgraded.code, upgraded.stderr]).toEqual([0, ''])
    expect(upgraded.stdout).toBe(Object.keys(BEFORE_NOTICES).map((path) => `Updated ${path}\n`).join(''))
    for (const path of Object.keys(BEFORE_NOTICES)) expect(app.read(path), path).toBe(readFileSync(join(checkoutStubs, `${path}.stub`), 'utf8'))
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
