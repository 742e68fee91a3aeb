import { createHash } from 'node:crypto'
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
  'App/Controllers/Auth/EmailVerificationController.ts',
  'App/Controllers/Auth/home.ts',
  'App/Views/layout.ts',
  'App/Views/auth/login.ts',
  'App/Views/auth/register.ts',
  'App/Views/auth/me.ts',
  'App/Views/auth/forgot-password.ts',
  'App/Views/auth/reset-password.ts',
  'App/Views/auth/verify-email.ts',
  'App/Mail/ResetPasswordMail.ts',
  'App/Mail/PasswordChangedMail.ts',
  'App/Mail/VerifyEmailMail.ts',
  'App/Mail/AlreadyRegisteredMail.ts',
  'App/Jobs/PruneAuthTables.ts',
  'database/factories/UserFactory.ts',
  'public/css/app.css',
  'tests/authClient.ts',
  'tests/auth.test.ts',
  'tests/auth-security.test.ts',
  'tests/password-reset.test.ts',
  'tests/email-verification.test.ts',
  'tests/auth-document.test.ts',
]

/**
 * The files an older make:auth wrote that this one writes otherwise, with the SHA-256 of what each release wrote
 * (before password reset, before email verification, before notices had a style of their own) and what to change by
 * hand when the app changed the file since. `--upgrade` rewrites such a file only while it is exactly as a make:auth
 * wrote it.
 */
const UPGRADED: readonly { path: string; stub: string; previous: readonly string[]; change: string }[] = [
  {
    path: 'App/Models/User.ts',
    stub: 'App/Models/User.ts.stub',
    previous: ['20b55a548dc6ae00ef6b64d94f8ae542a24e3aa559f0da4768fb7fb505d785a5'],
    change: "give the model its factory: import { UserFactory } from '#database/factories/UserFactory.js', and static factory = () => UserFactory",
  },
  {
    path: AUTH_ROUTES,
    stub: 'routes.stub',
    previous: [
      'eae893185db222e5fab02c3721b4ee5c34532da319dff56f8ad9a2b17e182870',
      '705283f3757799431679681d5cb69636dd4a0fcb35f22f6674383b0799b8c778',
      'ddc7ebb95decf267b26a501e2559544b8218d5ac929aeff630558c2e67a76745',
      '88bd1369d9f7582c05f4bed1f56c950c55e8e88ea73bf16472e22591553f43c2',
    ],
    change: [
      'add the routes your file lacks (the new ones are in fw-runtime/dist/generators/make-auth/stubs/routes.stub):',
      "import { PasswordResetController } from '#app/Controllers/Auth/PasswordResetController.js', and in the group of /login:",
      "  Route.get('/forgot-password', [PasswordResetController, 'create']).name('password.request')",
      "  Route.post('/forgot-password', [PasswordResetController, 'store']).name('password.email')",
      "  Route.get('/reset-password/{token}', [PasswordResetController, 'edit']).name('password.reset')",
      "  Route.post('/reset-password', [PasswordResetController, 'update']).name('password.store')",
      "import { EmailVerificationController } from '#app/Controllers/Auth/EmailVerificationController.js', and in the group of /me:",
      "  Route.get('/email/verify', [EmailVerificationController, 'notice']).name('verification.notice')",
      "  Route.post('/email/verification-notification', [EmailVerificationController, 'send']).name('verification.send')",
      'and outside the groups:',
      "  Route.get('/email/verify/{id}/{hash}', [EmailVerificationController, 'verify']).name('verification.verify').middleware(authHeaders, 'session', 'signed')",
      'and, for /openapi.json and /docs, the bodies from fw-runtime/auth: .body(registrationBody) on POST /register, .body(credentialsBody) on',
      'POST /login, .body(emailBody) on POST /forgot-password, .body(passwordResetBody) on POST /reset-password, .body(passwordChangeBody) on POST /password,',
      'and the answers each route gives (.returns(202, messageAnswer) on POST /register, .returns(429, …) on the throttled ones, …), as in that routes.stub',
    ].join('\n'),
  },
  {
    path: 'App/Views/auth/login.ts',
    stub: 'App/Views/auth/login.ts.stub',
    previous: ['b89c993498c743f6ce8176539c8514b8b1bc904e395e15a43303c8dfc50ad651', '21a4a7d808bb8f7b7bec3946c3087a35728d4f122b692082d6cbf2dd1baa61e1'],
    change: 'add a link <a href="/forgot-password">Forgot your password?</a>, and a checkbox named remember ("Remember me")',
  },
  {
    path: 'App/Controllers/Auth/LoginController.ts',
    stub: 'App/Controllers/Auth/LoginController.ts.stub',
    previous: ['b0c0e14ccfb7789bf7c882ca410fffd5dc400a77e0a94c33fbe6cbf919e7ad38', '7702e8c3172a31dfe52ff8c4022605689720a9f2b0bf967154cf4035029c00f8'],
    change: "sign browsers in with signIn(request, user, { remember: request.input('remember') === 'on' }), and show request.session.get('status') on the page",
  },
  {
    path: 'App/Views/auth/register.ts',
    stub: 'App/Views/auth/register.ts.stub',
    previous: ['0f07da8dd20e0aeebb82967f2932690f81ef51b8aa5d27262063d7d4bffe57a2'],
    change: 'add a password field named password_confirmation ("Confirm password")',
  },
  {
    path: 'App/Controllers/Auth/RegisterController.ts',
    stub: 'App/Controllers/Auth/RegisterController.ts.stub',
    previous: ['cc0366230bbad82a7a451fd1235e10338a4c90742df1adcc8fd4e8467d77fd77', 'be3fe57e79cd87cba5faaaee3f68b40f0576012fbdecabea617c61844d8fd23d'],
    change:
      'call validateRegistration(request, { confirmed: true }), once the form has password_confirmation; to verify emails, answer a new and a taken address alike (202) and mail VerifyEmailMail or AlreadyRegisteredMail, as the new RegisterController in fw-runtime/dist/generators/make-auth/stubs does',
  },
  {
    path: 'App/Controllers/Auth/MeController.ts',
    stub: 'App/Controllers/Auth/MeController.ts.stub',
    previous: ['379471997e2defa0ec12cba94467b97b45a4b6683dfad21dbcfe93af6c570fa4'],
    change: 'show whether the email is verified: emailVerifiedAt(user) from fw-runtime/auth, and call mePage({ user, csrfToken, emailVerifiedAt })',
  },
  {
    path: 'App/Controllers/Auth/PasswordController.ts',
    stub: 'App/Controllers/Auth/PasswordController.ts.stub',
    previous: ['1c471c83776a0e32b840e2eedd80b6f29c292e696ecd503e01ca43e5fbf8dae0'],
    change: 'call mePage({ user, csrfToken: request.csrfToken(), emailVerifiedAt: await emailVerifiedAt(user), errors: error.errors }), if you take the new App/Views/auth/me.ts',
  },
  {
    path: 'App/Views/auth/me.ts',
    stub: 'App/Views/auth/me.ts.stub',
    previous: ['a37757cb0dd8aceba599942953b129c6bb2f988936685e157bd5562cf84b8551', '195c8984f4db2d7f9f34906492bff4e59a9e4701d73c8e1ad48b2b2ee256503e'],
    change: 'show whether the email is verified, with a form that posts _token to /email/verification-notification ("Email me a new link")',
  },
  {
    path: 'public/css/app.css',
    stub: 'public/css/app.css.stub',
    previous: ['66c8477367997afd0d6b52fba864390f9229adc52acc94b4fbeb20e23ccab1b5', '74c1265bedd5c5a5f97673fc50f7fd40a49467a1bf69f89f6fa139c86fe456c8'],
    change: 'style label.checkbox (the "Remember me" box) as you like',
  },
  {
    path: 'tests/authClient.ts',
    stub: 'tests/authClient.ts.stub',
    previous: ['e4c629dcb82159b43bd4ddbb0ff87881b0b1d9bf7bf8f9c4e2450f0246efb087', 'bb62874e3b2f51ce1995790d97368aeb7759ec5d0cfd489b83dbe7f072e7ba46'],
    change: 'send password_confirmation with the password when registering; registration now answers 202 and signs no one in: sign in with POST /login for a token',
  },
  {
    path: 'tests/auth.test.ts',
    stub: 'tests/auth.test.ts.stub',
    previous: ['9f4eb94f257d130a7d213ecf935e909380f48a1b79d39e6acbab78d69855830f', '1d4c11f7fbd81a9e4fafe0f2434ab1b9d20278ba9f3ef809cb7385941762c122'],
    change: 'send password_confirmation with the password when registering; registration now answers 202 for a new and a taken email alike, and a browser goes to /login',
  },
  {
    path: 'tests/auth-security.test.ts',
    stub: 'tests/auth-security.test.ts.stub',
    previous: ['f64cb926c1c7682c9b15a60b1f1284bea4280db18d28003c00e34f46c1f9d9e3'],
    change: 'send password_confirmation with the password when registering',
  },
  {
    path: 'tests/password-reset.test.ts',
    stub: 'tests/password-reset.test.ts.stub',
    previous: ['3ce53ae5780748474a506413f1e7d20f35e85715b9de472ea1eaf58ed4308753'],
    change: 'registration now answers 202 and signs no one in: sign in with POST /login for a token',
  },
]

/**
 * In the order they must run: the tokens refer to users. `email_verified_at` is a migration of its own, so that an app
 * made before it gets the column from `--upgrade` (its users counted as verified) as a new app does.
 */
const MIGRATION_NAMES = ['create_users_table', 'create_access_tokens_table', 'create_login_attempts_table', 'create_password_reset_tokens_table', 'add_email_verified_at_to_users_table']

/** `fw make:auth` */
export const makeAuth: Command = {
  name: 'make:auth',
  summary: 'Add registration, email verification, sign-in (API tokens and browser sessions), password reset and their pages',
  usage: 'make:auth [--force | --upgrade]',
  details: [
    'Writes the users (with is_admin and email_verified_at), access_tokens, login_attempts and password_reset_tokens',
    'migrations, App/Models/User.ts and database/factories/UserFactory.ts, the Auth controllers, the sign-in, registration, verify-your-email and password',
    'reset pages, the verification and reset mails in App/Mail, public/css/app.css and its tests, the hourly',
    'housekeeping job App/Jobs/PruneAuthTables.ts in bootstrap/schedule.ts (made, or added to), and its routes in',
    "routes/auth.ts, which routes/web.ts imports (import './auth.js'): POST /register, POST /login, POST /logout,",
    'POST /password, GET /me, GET /login, GET /register, GET|POST /forgot-password, GET /reset-password/{token},',
    'POST /reset-password, GET /email/verify, GET /email/verify/{id}/{hash}, POST /email/verification-notification.',
    "Hashing, tokens, sessions, CSRF, reset and verification links and the throttles are fw-runtime/auth's. New",
    'accounts verify their email (VERIFY_EMAIL in App/Controllers/Auth/RegisterController.ts). Then run fw migrate.',
    '--force    write every file again, over existing ones',
    '--upgrade  for an app made by an older make:auth: write the missing migrations and files, update the files it',
    '           wrote that are as it wrote them, and say what to change in the others (it overwrites none)',
  ],
  options: { force: { type: 'boolean', short: 'f' }, upgrade: { type: 'boolean' } },
  async run({ values, cwd }) {
    const force = values.force === true
    if (values.upgrade === true) {
      if (force) throw new CommandError('--force and --upgrade do not go together: --upgrade keeps your files, --force writes them all again')
      return upgrade(cwd)
    }
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

/**
 * `fw make:auth --upgrade`: brings an app made by an older make:auth up to this one without touching what its owner
 * changed. Writes the migrations and files it lacks, rewrites a file make:auth changed since only while it is exactly
 * as make:auth wrote it, and says what to change in each of the others.
 */
function upgrade(cwd: string): void {
  if (!existsSync(join(cwd, AUTH_ROUTES))) {
    throw new CommandError(`${AUTH_ROUTES} is missing: fw make:auth --upgrade upgrades an app where fw make:auth wrote it (run fw make:auth, or fw make:auth --force for an app whose auth routes are in ${ROUTES})`)
  }
  const existing = existsSync(join(cwd, MIGRATIONS)) ? readdirSync(join(cwd, MIGRATIONS)) : []
  const missing = MIGRATION_NAMES.filter((name) => !existing.some((file) => file.replace(/^\d{14}_/, '') === `${name}.ts`))
  const created: GeneratedFile[] = [
    ...migrations(cwd, false, missing),
    ...FILES.filter((path) => !existsSync(join(cwd, path))).map((path) => ({ path, content: stub('make-auth', `${path}.stub`, {}) })),
  ]
  const updated: { path: string; content: string }[] = []
  const toChange: { path: string; change: string }[] = []
  for (const file of UPGRADED) {
    const current = read(cwd, file.path)
    const content = stub('make-auth', file.stub, {})
    if (current === undefined || current === content) continue
    if (file.previous.includes(createHash('sha256').update(current).digest('hex'))) updated.push({ path: file.path, content })
    else toChange.push(file)
  }
  const readme = read(cwd, README)
  if (readme !== undefined && withReadmeSection(readme) !== readme) updated.push({ path: README, content: withReadmeSection(readme) })

  writeFiles(cwd, created, false)
  for (const file of updated) writeFileSync(join(cwd, file.path), file.content)
  for (const file of created) console.log(`Created ${file.path}`)
  for (const file of updated) console.log(`Updated ${file.path}`)
  for (const file of toChange) console.log(`Left ${file.path} as you changed it; to finish the upgrade, ${file.change}`)
  if (created.length + updated.length + toChange.length === 0) console.log('Auth is up to date: nothing to do.')
  else if (missing.length > 0) console.log('Next: fw migrate')
}

function read(cwd: string, path: string): string | undefined {
  const file = join(cwd, path)
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined
}

/**
 * The migrations (all of them, or those named), one second apart so that they sort in order. With --force, a migration
 * make:auth wrote before keeps its file name, so that it is not run a second time.
 */
function migrations(cwd: string, force: boolean, names: readonly string[] = MIGRATION_NAMES): GeneratedFile[] {
  const existing = existsSync(join(cwd, MIGRATIONS)) ? readdirSync(join(cwd, MIGRATIONS)) : []
  let next = Date.now()
  return names.map((name) => {
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
