import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createDatabase } from '../../src/database/createDatabase.js'
import { createFwApp, type FwApp } from '../support/fwApp.js'

const APP_FILES = [
  'App/Controllers/Auth/EmailVerificationController.ts',
  'App/Controllers/Auth/LoginController.ts',
  'App/Controllers/Auth/MeController.ts',
  'App/Controllers/Auth/PasswordController.ts',
  'App/Controllers/Auth/PasswordResetController.ts',
  'App/Controllers/Auth/RegisterController.ts',
  'App/Controllers/Auth/home.ts',
  'App/Jobs/PruneAuthTables.ts',
  'App/Mail/AlreadyRegisteredMail.ts',
  'App/Mail/PasswordChangedMail.ts',
  'App/Mail/ResetPasswordMail.ts',
  'App/Mail/VerifyEmailMail.ts',
  'App/Models/User.ts',
  'App/Views/auth/forgot-password.ts',
  'App/Views/auth/login.ts',
  'App/Views/auth/me.ts',
  'App/Views/auth/register.ts',
  'App/Views/auth/reset-password.ts',
  'App/Views/auth/verify-email.ts',
  'App/Views/layout.ts',
]
const MIGRATIONS = [/^\d{14}_create_users_table\.ts$/, /^\d{14}_create_access_tokens_table\.ts$/, /^\d{14}_create_login_attempts_table\.ts$/, /^\d{14}_create_password_reset_tokens_table\.ts$/, /^\d{14}_add_email_verified_at_to_users_table\.ts$/]
const ROUTES = "import { Route } from 'fw-runtime'\n\nRoute.get('/', () => ({ status: 'running' })).name('home')\n"

let app: FwApp
beforeEach(() => {
  app = createFwApp()
  app.write('README.md', '# My app\n\nMine.\n')
})
afterEach(() => app.remove())

const read = (path: string) => readFileSync(join(app.dir, path), 'utf8')
/** Every file of the app except node_modules, with its content: to check that a refusal changed nothing. */
function snapshot(): Record<string, string> {
  const result: Record<string, string> = {}
  for (const entry of readdirSync(app.dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name).slice(app.dir.length + 1)
    if (entry.isFile() && !path.startsWith('node_modules')) result[path] = read(path)
  }
  return result
}
const migrations = () => readdirSync(join(app.dir, 'database/migrations')).sort()

describe('fw make:auth', () => {
  it('writes the migrations in order, the app files, its test, and routes/auth.ts imported by routes/web.ts', async () => {
    const result = await app.fw(['make:auth'])

    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    const files = migrations()
    expect(files).toHaveLength(5)
    files.forEach((file, index) => expect(file).toMatch(MIGRATIONS[index]!))
    for (const path of [...APP_FILES, 'public/css/app.css', 'tests/authClient.ts', 'tests/auth.test.ts', 'tests/auth-security.test.ts', 'tests/password-reset.test.ts', 'tests/email-verification.test.ts', 'tests/auth-document.test.ts']) {
      expect(existsSync(join(app.dir, path)), path).toBe(true)
      expect(result.stdout).toContain(`Created ${path}\n`)
      expect(read(path), path).not.toMatch(/\{\{ \w+ \}\}/)
    }
    expect(result.stdout).toContain('Updated routes/web.ts\n')
    expect(result.stdout).toContain('Created routes/auth.ts\n')

    const web = read('routes/web.ts')
    expect(web).toContain("import { Route } from 'fw-runtime'\nimport './auth.js'\n")
    expect(web).toContain("Route.get('/', () => ({ status: 'running' })).name('home')\n")
    const routes = read('routes/auth.ts')
    const lines = routes.split('\n')
    expect(lines[0]).toBe("import { Route } from 'fw-runtime'")
    // The middleware, and the bodies and answers each route declares for /openapi.json (fw-runtime/auth's), a name a line.
    const names = ['auth', 'authCsrf', 'authHeaders', 'credentialsBody', 'emailBody', 'meAnswer', 'messageAnswer', 'passwordChangeBody', 'passwordChangedAnswer', 'passwordResetBody', 'redirectIfAuthenticated', 'registrationBody', 'resetLinkAnswer', 'resetLinkQuery', 'signedInAnswer', 'verificationNoticeAnswer']
    expect(lines.slice(1, names.length + 3)).toEqual(['import {', ...names.map((name) => `  ${name},`), "} from 'fw-runtime/auth'"])
    expect(lines.slice(names.length + 3, names.length + 10)).toEqual([
      "import { EmailVerificationController } from '#app/Controllers/Auth/EmailVerificationController.js'",
      "import { HOME } from '#app/Controllers/Auth/home.js'",
      "import { LoginController } from '#app/Controllers/Auth/LoginController.js'",
      "import { MeController } from '#app/Controllers/Auth/MeController.js'",
      "import { PasswordController } from '#app/Controllers/Auth/PasswordController.js'",
      "import { PasswordResetController } from '#app/Controllers/Auth/PasswordResetController.js'",
      "import { RegisterController } from '#app/Controllers/Auth/RegisterController.js'",
    ])
    // public/css/app.css is served as a public file: no controller, no route.
    expect(routes).not.toContain('/css/')
    expect(existsSync(join(app.dir, 'App/Controllers/StylesheetController.ts'))).toBe(false)
    // The security machinery is the runtime's: nothing of it is copied into the app.
    for (const gone of ['App/Auth', 'App/Middleware/auth.ts', 'App/Middleware/csrf.ts', 'App/Models/AccessToken.ts', 'App/Models/LoginAttempt.ts']) {
      expect(existsSync(join(app.dir, gone)), gone).toBe(false)
    }
    for (const route of ["post('/register'", "post('/login'", "post('/logout'", "post('/password'", "get('/me'", "get('/login'", "get('/register'", "get('/forgot-password'", "post('/forgot-password'", "get('/reset-password/{token}'", "post('/reset-password'", "get('/email/verify'", "post('/email/verification-notification'", "get('/email/verify/{id}/{hash}'"]) {
      expect(routes).toContain(`Route.${route}`)
    }
    expect(read('README.md')).toMatch(/^# My app\n\nMine\.\n\n<!-- fw:auth begin -->\n## Authentication\n[\s\S]+<!-- fw:auth end -->\n$/)
  })

  it('schedules its housekeeping job hourly: in a new bootstrap/schedule.ts, or added to the app\'s own', async () => {
    const made = await app.fw(['make:auth'])
    expect(made.stdout).toContain('Created bootstrap/schedule.ts\n')
    expect(read('bootstrap/schedule.ts')).toBe(
      [
        "import { schedule } from 'fw-runtime/schedule'",
        "import { PruneAuthTables } from '#app/Jobs/PruneAuthTables.js'",
        '',
        '// What runs at set times, under fw schedule:work (or fw start --scheduler); fw schedule:list shows it.',
        'schedule.job(PruneAuthTables).hourly()',
        '',
      ].join('\n'),
    )
    const listed = await app.fw(['schedule:list'])
    expect(listed.code).toBe(0)
    expect(listed.stdout).toMatch(/^job:PruneAuthTables\s+0 \* \* \* \*\s+UTC\s/m)

    // An app with a schedule of its own keeps it, with the task added; a second run adds nothing.
    const mine = "import { schedule } from 'fw-runtime/schedule'\nimport { Digest } from '#app/Jobs/Digest.js'\n\nschedule.job(Digest).daily()\n"
    app.write('bootstrap/schedule.ts', mine)
    const forced = await app.fw(['make:auth', '--force'])
    expect(forced.code).toBe(0)
    expect(forced.stdout).toContain('Updated bootstrap/schedule.ts\n')
    const expected = "import { schedule } from 'fw-runtime/schedule'\nimport { Digest } from '#app/Jobs/Digest.js'\nimport { PruneAuthTables } from '#app/Jobs/PruneAuthTables.js'\n\nschedule.job(Digest).daily()\nschedule.job(PruneAuthTables).hourly()\n"
    expect(read('bootstrap/schedule.ts')).toBe(expected)
    expect((await app.fw(['make:auth', '--force'])).stdout).not.toContain('bootstrap/schedule.ts')
    expect(read('bootstrap/schedule.ts')).toBe(expected)
  })

  it('stores hashes and SHA-256 digests only (in fw-runtime/auth), and keeps secrets out of responses', async () => {
    await app.fw(['make:auth'])

    // What the app's files used to hold, now in the runtime that every app shares.
    const runtime = (path: string) => readFileSync(join(app.dir, 'node_modules/fw-runtime/src/auth', path), 'utf8')
    expect(runtime('password.ts')).toContain("['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$')")
    expect(runtime('password.ts')).toContain('timingSafeEqual(actual, expected)')
    expect(runtime('accessTokens.ts')).toContain("randomBytes(32).toString('base64url')")
    expect(runtime('accessTokens.ts')).toContain("createHash('sha256')")
    expect(runtime('attemptLogin.ts')).toContain('return { id: Number(user.id), name: user.name, email: user.email }')
    expect(read('App/Controllers/Auth/LoginController.ts')).toContain('await signIn(request, user, { remember })')
    expect(read('App/Models/User.ts')).not.toContain('node:crypto')
    expect(read('App/Controllers/Auth/LoginController.ts')).not.toMatch(/\.stack\b/)
  })

  it('creates tables that migrate and roll back on SQLite', async () => {
    await app.fw(['make:auth'])

    const migrated = await app.fw(['migrate'])
    expect(migrated.stderr).toBe('')
    expect(migrated.stdout.match(/^Migrated {2}/gm)).toHaveLength(5)
    const db = createDatabase(undefined, app.dir)
    try {
      const tables = await db.introspection.getTables()
      const columns = (name: string) => tables.find((table) => table.name === name)?.columns.map((column) => column.name)
      expect(columns('users')).toEqual(['id', 'name', 'email', 'password_hash', 'is_admin', 'created_at', 'updated_at', 'email_verified_at'])
      expect(columns('access_tokens')).toEqual(['id', 'user_id', 'token_hash', 'kind', 'expires_at', 'last_used_at', 'created_at', 'updated_at'])
      expect(columns('login_attempts')).toEqual(['key', 'attempts', 'reset_at'])
      expect(columns('password_reset_tokens')).toEqual(['user_id', 'token_hash', 'created_at'])
    } finally {
      await db.destroy()
    }
    const rolledBack = await app.fw(['migrate:rollback'])
    expect(rolledBack.code).toBe(0)
    expect(rolledBack.stdout.match(/^Rolled back {2}/gm)).toHaveLength(5)
  })

  it('runs after the migrations that are already there, even one stamped in the future', async () => {
    const future = new Date(Date.now() + 3_600_000).toISOString().replace(/\D/g, '').slice(0, 14)
    app.write(`database/migrations/${future}_create_posts_table.ts`, 'export async function up() {}\n')

    expect((await app.fw(['make:auth'])).code).toBe(0)

    const files = migrations()
    expect(files[0]).toBe(`${future}_create_posts_table.ts`)
    files.slice(1).forEach((file, index) => expect(file).toMatch(MIGRATIONS[index]!))
    const stamps = files.map((file) => file.slice(0, 14))
    expect(new Set(stamps).size).toBe(6)
    expect([...stamps].sort()).toEqual(stamps)
  })

  it('says auth is already installed on a second run, and changes nothing', async () => {
    await app.fw(['make:auth'])
    app.write('App/Models/User.ts', '// mine\n')
    const before = snapshot()

    const again = await app.fw(['make:auth'])

    expect(again.code).toBe(1)
    expect(again.stdout).toBe('')
    expect(again.stderr).toBe('Auth is already installed (routes/auth.ts exists); use --force to write its files again\n')
    expect(snapshot()).toEqual(before)
  })

  it('writes nothing when one of its files is already there', async () => {
    app.write('App/Views/layout.ts', '// mine\n')
    const before = snapshot()

    const result = await app.fw(['make:auth'])

    expect(result.code).toBe(1)
    expect(result.stderr).toBe('App/Views/layout.ts already exists; use --force to overwrite it\n')
    expect(snapshot()).toEqual(before)
  })

  it('refuses next to a users migration of its own, writing nothing', async () => {
    app.write('database/migrations/20240101000000_create_users_table.ts', 'export async function up() {}\n')
    const before = snapshot()

    const result = await app.fw(['make:auth'])

    expect(result.code).toBe(1)
    expect(result.stderr).toBe('A migration named create_users_table already exists in database/migrations\n')
    expect(snapshot()).toEqual(before)
  })

  it('writes every file again with --force, keeping the migration names and one routes block', async () => {
    await app.fw(['make:auth'])
    const names = migrations()
    app.write('App/Models/User.ts', '// mine\n')
    app.write(`database/migrations/${names[0]}`, '// mine\n')
    rmSync(join(app.dir, 'App/Views/layout.ts'))

    const forced = await app.fw(['make:auth', '--force'])

    expect(forced.stderr).toBe('')
    expect(forced.code).toBe(0)
    expect(migrations()).toEqual(names)
    expect(read(`database/migrations/${names[0]}`)).toContain(".createTable('users')")
    expect(read('App/Models/User.ts')).toContain("export class User extends Model('users', { hidden: ['password_hash'], fillable: ['name', 'email'] })")
    expect(existsSync(join(app.dir, 'App/Views/layout.ts'))).toBe(true)
    expect(read('routes/web.ts').match(/import '.\/auth.js'/g)).toHaveLength(1)
    expect(read('routes/auth.ts').match(/from 'fw-runtime\/auth'/g)).toHaveLength(1)
    expect(read('README.md').match(/<!-- fw:auth begin -->/g)).toHaveLength(1)
  })

  it('needs routes/web.ts, and takes no arguments', async () => {
    rmSync(join(app.dir, 'routes/web.ts'))
    const before = snapshot()

    const missing = await app.fw(['make:auth'])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toBe('routes/web.ts is missing: fw make:auth adds its routes there\n')
    expect(snapshot()).toEqual(before)

    app.write('routes/web.ts', ROUTES)
    const extra = await app.fw(['make:auth', 'Admin'])
    expect(extra.code).toBe(1)
    expect(extra.stderr).toBe('fw make:auth takes no more arguments (usage: fw make:auth [--force | --upgrade])\n')
  })

  it('puts its one import line first in a routes file that has none', async () => {
    app.write('routes/web.ts', '// No routes yet.\n')

    expect((await app.fw(['make:auth'])).code).toBe(0)

    expect(read('routes/web.ts')).toBe("import './auth.js'\n\n// No routes yet.\n")
    expect(read('routes/auth.ts')).toMatch(/^import \{ Route \} from 'fw-runtime'\nimport \{\n( {2}\w+,\n)+\} from 'fw-runtime\/auth'\n(import [^\n]+\n){7}\n/)
  })
})
