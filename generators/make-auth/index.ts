import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { CommandError, type Command } from '../../runtime/src/cli/Command.js'
import { stub } from '../../runtime/src/cli/generate/stub.js'
import { withImport } from '../../runtime/src/cli/generate/withImport.js'
import { writeFiles, type GeneratedFile } from '../../runtime/src/cli/generate/writeFiles.js'
import { migrationFile } from '../make-migration/index.js'

const ROUTES = 'routes/web.ts'
/** make:auth's own routes file, imported by routes/web.ts with one line. */
const AUTH_ROUTES = 'routes/auth.ts'
const IMPORT_ROUTES = "import './auth.js'"
const README = 'README.md'
/** Where an app's schedule is: make:auth's housekeeping job runs from it every hour. */
const SCHEDULE = 'bootstrap/schedule.ts'
const SCHEDULE_IMPORTS = ["import { schedule } from 'fw-runtime/schedule'", "import { PruneAuthTables } from '#app/Jobs/PruneAuthTables.js'"]
const SCHEDULE_LINE = 'schedule.job(PruneAuthTables).hourly()'
const MIGRATIONS = 'database/migrations'
/** The block an older make:auth wrote into routes/web.ts: removed when --force writes routes/auth.ts. */
const BEGIN = '// fw:auth begin'
const END = '// fw:auth end'
const README_BEGIN = '<!-- fw:auth begin -->'
const README_END = '<!-- fw:auth end -->'

/**
 * The application files, each from `stubs/<path>.stub`: only what a person edits. The security machinery
 * (hashing, tokens, sessions, CSRF, the throttle) is fw-runtime/auth's, so `npm update` delivers its fixes.
 */
const FILES = [
  'App/Models/User.ts',
  'App/Controllers/Auth/LoginController.ts',
  'App/Controllers/Auth/RegisterController.ts',
  'App/Controllers/Auth/MeController.ts',
  'App/Controllers/Auth/PasswordController.ts',
  'App/Controllers/Auth/PasswordResetController.ts',
  'App/Controllers/Auth/home.ts',
  'App/Views/layout.ts',
  'App/Views/auth/login.ts',
  'App/Views/auth/register.ts',
  'App/Views/auth/me.ts',
  'App/Views/auth/forgot-password.ts',
  'App/Views/auth/reset-password.ts',
  'App/Mail/ResetPasswordMail.ts',
  'App/Mail/PasswordChangedMail.ts',
  'App/Jobs/PruneAuthTables.ts',
  'public/css/app.css',
  'tests/authClient.ts',
  'tests/auth.test.ts',
  'tests/auth-security.test.ts',
  'tests/password-reset.test.ts',
]

/** In the order they must run: the tokens refer to users. */
const MIGRATION_NAMES = ['create_users_table', 'create_access_tokens_table', 'create_login_attempts_table', 'create_password_reset_tokens_table']

/** `fw make:auth` */
export const makeAuth: Command = {
  name: 'make:auth',
  summary: 'Add registration, sign-in (API tokens and browser sessions), password reset and their pages',
  usage: 'make:auth [--force]',
  details: [
    'Writes the users (with is_admin), access_tokens, login_attempts and password_reset_tokens migrations,',
    'App/Models/User.ts, the Auth controllers, the sign-in, registration and password reset pages, the reset',
    'mails in App/Mail, public/css/app.css and its tests, the hourly housekeeping job App/Jobs/PruneAuthTables.ts',
    "in bootstrap/schedule.ts (made, or added to), and its routes in routes/auth.ts, which routes/web.ts imports",
    "(import './auth.js'): POST /register, POST /login, POST /logout, POST /password, GET /me, GET /login,",
    'GET /register, GET|POST /forgot-password, GET /reset-password/{token}, POST /reset-password. Hashing,',
    "tokens, sessions, CSRF, reset links and the throttles are fw-runtime/auth's. Then run fw migrate.",
    '--force  write every file again, over existing ones',
  ],
  options: { force: { type: 'boolean', short: 'f' } },
  async run({ values, cwd }) {
    const force = values.force === true
    const routes = read(cwd, ROUTES)
    if (routes === undefined) throw new CommandError(`${ROUTES} is missing: fw make:auth adds its routes there`)
    if ((existsSync(join(cwd, AUTH_ROUTES)) || routes.includes(BEGIN)) && !force) {
      throw new CommandError(`Auth is already installed (${AUTH_ROUTES} exists); use --force to write its files again`)
    }

    const files: GeneratedFile[] = [
      ...migrations(cwd, force),
      ...FILES.map((path) => ({ path, content: stub('make-auth', `${path}.stub`, {}) })),
      { path: AUTH_ROUTES, content: stub('make-auth', 'routes.stub', {}) },
    ]
    const readme = read(cwd, README)
    const schedule = read(cwd, SCHEDULE)
    if (schedule === undefined) files.push({ path: SCHEDULE, content: stub('make-auth', `${SCHEDULE}.stub`, {}) })
    const updates = [
      ...(withRoutes(routes) === routes ? [] : [{ path: ROUTES, before: routes, after: withRoutes(routes) }]),
      ...(readme === undefined ? [] : [{ path: README, before: readme, after: withReadmeSection(readme) }]),
      ...(schedule === undefined || withHousekeeping(schedule) === schedule ? [] : [{ path: SCHEDULE, before: schedule, after: withHousekeeping(schedule) }]),
    ]
    writeFiles(cwd, files, force)
    const updated: typeof updates = []
    try {
      for (const update of updates) {
        writeFileSync(join(cwd, update.path), update.after)
        updated.push(update)
      }
    } catch (error) {
      for (const update of updated) writeFileSync(join(cwd, update.path), update.before)
      if (!force) for (const file of files) rmSync(join(cwd, file.path), { force: true })
      throw new CommandError(`Could not update ${updates[updated.length]!.path}: ${(error as Error).message}`)
    }

    for (const file of files) console.log(`Created ${file.path}`)
    for (const update of updates) console.log(`Updated ${update.path}`)
    console.log('Next: fw migrate, then open /register or POST /register')
  },
}

function read(cwd: string, path: string): string | undefined {
  const file = join(cwd, path)
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined
}

/**
 * The three migrations, one second apart so that they sort in order. With --force, a migration
 * make:auth wrote before keeps its file name, so that it is not run a second time.
 */
function migrations(cwd: string, force: boolean): GeneratedFile[] {
  const existing = existsSync(join(cwd, MIGRATIONS)) ? readdirSync(join(cwd, MIGRATIONS)) : []
  let next = Date.now()
  return MIGRATION_NAMES.map((name) => {
    const content = stub('make-auth', `migrations/${name}.stub`, {})
    const previous = force ? existing.find((file) => file.replace(/^\d{14}_/, '') === `${name}.ts`) : undefined
    if (previous) return { path: `${MIGRATIONS}/${previous}`, content }
    const { path } = migrationFile(cwd, name, new Date(next))
    next = stampTime(path) + 1000
    return { path, content }
  })
}

/** The time of a migration file's `YYYYMMDDHHMMSS` stamp, in milliseconds. */
function stampTime(path: string): number {
  const stamp = /(\d{14})_[^/]+$/.exec(path)![1]!
  return Date.UTC(+stamp.slice(0, 4), +stamp.slice(4, 6) - 1, +stamp.slice(6, 8), +stamp.slice(8, 10), +stamp.slice(10, 12), +stamp.slice(12, 14))
}

/** routes/web.ts importing routes/auth.ts (without the block an older make:auth put in it). */
function withRoutes(source: string): string {
  return withImport(removeBlock(source, BEGIN, END), IMPORT_ROUTES)
}

/** An app's own schedule with make:auth's housekeeping in it (its imports, and the task at the end). */
function withHousekeeping(source: string): string {
  const imported = SCHEDULE_IMPORTS.reduce(withImport, source)
  if (imported.includes('schedule.job(PruneAuthTables)')) return imported
  return `${imported.trimEnd()}\n${SCHEDULE_LINE}\n`
}

function withReadmeSection(source: string): string {
  return `${removeBlock(source, README_BEGIN, README_END).trimEnd()}\n\n${stub('make-auth', 'README.stub', {})}`
}

/** The text without the lines from `begin` to `end`, both included. */
function removeBlock(text: string, begin: string, end: string): string {
  const start = text.indexOf(begin)
  const stop = text.indexOf(end, start)
  if (start === -1 || stop === -1) return text
  return text.slice(0, start) + text.slice(stop + end.length).replace(/^\r?\n/, '')
}
