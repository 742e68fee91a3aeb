import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { CommandError, type Command } from '../../runtime/src/cli/Command.js'
import { classPath, kebabCase } from '../../runtime/src/cli/generate/names.js'
import { stub } from '../../runtime/src/cli/generate/stub.js'
import { withImport } from '../../runtime/src/cli/generate/withImport.js'
import { writeFiles, type GeneratedFile } from '../../runtime/src/cli/generate/writeFiles.js'
import { migrationFile } from '../make-migration/index.js'

const ROUTES = 'routes/web.ts'
const MIGRATIONS = 'database/migrations'
/** Files of a dashboard made before fw-runtime/dash, which --force does not write again. */
const OBSOLETE = ['schema.ts', 'fields.ts', 'StylesheetController.ts']
/** make:auth's routes file: its sign-in, from fw-runtime/auth, is what guards a dashboard. */
const AUTH_ROUTES = 'routes/auth.ts'

/** The files of a dashboard named `name` (PascalCase), in the order they are reported. */
function dashboardFiles(values: Record<string, string>, withTest: boolean): GeneratedFile[] {
  const { name, camel, kebab } = values as { name: string; camel: string; kebab: string }
  const files: [string, string][] = [
    [`App/Policies/${name}Policy.ts`, 'policy.stub'],
    [`App/Middleware/${camel}Dashboard.ts`, 'middleware.stub'],
    [`App/Controllers/${name}/OverviewController.ts`, 'OverviewController.stub'],
    [`App/Controllers/${name}/TableController.ts`, 'TableController.stub'],
    [`App/Controllers/${name}/dashboard.ts`, 'dashboard.stub'],
    [`App/Controllers/${name}/page.ts`, 'page.stub'],
    [`App/Views/${name}/urls.ts`, 'views/urls.stub'],
    [`App/Views/${name}/layout.ts`, 'views/layout.stub'],
    [`App/Views/${name}/values.ts`, 'views/values.stub'],
    [`App/Views/${name}/overview.ts`, 'views/overview.stub'],
    [`App/Views/${name}/tableList.ts`, 'views/tableList.stub'],
    [`App/Views/${name}/row.ts`, 'views/row.stub'],
    [`App/Views/${name}/rowForm.ts`, 'views/rowForm.stub'],
    [`App/Views/${name}/confirmDelete.ts`, 'views/confirmDelete.stub'],
    [`App/Views/${name}/errors.ts`, 'views/errors.stub'],
    [`public/css/${kebab}.css`, 'dashboard.css.stub'],
  ]
  if (withTest) files.push([`tests/${name}/dashboard.test.ts`, 'dashboard.test.stub'])
  return files.map(([path, file]) => ({ path, content: stub('make-dash', file, values) }))
}

/** The dashboard's own routes file, which routes/web.ts imports with one line. */
function routesFileOf(kebab: string): { path: string; importLine: string } {
  return { path: `routes/dash-${kebab}.ts`, importLine: `import './dash-${kebab}.js'` }
}

/**
 * The migration that adds `users.is_admin`, for an application whose migrations do not create that
 * column yet (make:auth wrote its users table before admin rights moved to the database); undefined otherwise.
 */
function isAdminMigration(cwd: string): GeneratedFile | undefined {
  const folder = join(cwd, MIGRATIONS)
  const files = existsSync(folder) ? readdirSync(folder).filter((file) => /\.[mc]?[jt]s$/.test(file)) : []
  if (files.some((file) => /\bis_admin\b/.test(readFileSync(join(folder, file), 'utf8')))) return undefined
  const { path } = migrationFile(cwd, 'add_is_admin_to_users_table')
  return { path, content: stub('make-dash', 'add_is_admin_to_users_table.stub', {}) }
}

/** `fw make:dash Admin` */
export const makeDash: Command = {
  name: 'make:dash',
  summary: 'Create an admin dashboard over the database, behind make:auth sign-in',
  usage: 'make:dash <Name> [--force]',
  details: [
    'Mounts the dashboard at the kebab-case name (Admin → /admin): an overview (with the job queue and a',
    'retry for failed jobs), and every table of the database with search, sort, pagination, a row view',
    'and forms to create, edit and delete rows.',
    'Writes App/Controllers/<Name>/, App/Views/<Name>/, App/Policies/<Name>Policy.ts,',
    'App/Middleware/<name>Dashboard.ts, public/css/<name>.css, a test, and routes/dash-<name>.ts, imported by routes/web.ts.',
    'Needs fw make:auth first. Who may enter: App/Policies/<Name>Policy.ts (by default the users made admins',
    'with fw admin:grant <email>; the migration adding users.is_admin is written when no migration has it yet).',
    'Password and token hashes are never shown or edited; sign-in\'s own tables are read-only (fw-runtime/dash).',
    '--force  overwrite the files of an earlier run',
  ],
  arguments: 1,
  options: { force: { type: 'boolean', short: 'f' } },
  async run({ positionals, values: options, cwd }) {
    const input = positionals[0]!
    const { folders, className: name } = classPath(input, 'dashboard', 'Admin')
    if (folders.length > 0) throw new CommandError(`"${input}" is not a valid dashboard name: use one PascalCase word such as Admin`)
    const force = options.force === true
    const routesFile = join(cwd, ROUTES)
    if (!existsSync(routesFile)) throw new CommandError(`No ${ROUTES} in ${cwd}: run fw from your application's folder`)
    const routes = readFileSync(routesFile, 'utf8')
    const authRoutes = join(cwd, AUTH_ROUTES)
    if (!existsSync(authRoutes)) {
      throw new CommandError(`The ${name} dashboard needs sign-in: run "fw make:auth" first, then "fw make:dash ${name}"`)
    }
    if (!readFileSync(authRoutes, 'utf8').includes("'fw-runtime/auth'")) {
      throw new CommandError(
        `The ${name} dashboard needs the sign-in of fw-runtime/auth, and this application's make:auth is older: move it onto the runtime first (CHANGELOG: "An application made by an older fw make:auth"), then run "fw make:dash ${name}"`,
      )
    }
    const kebab = kebabCase(name)
    const own = routesFileOf(kebab)
    if (existsSync(join(cwd, own.path)) && !force) {
      throw new CommandError(`The ${name} dashboard is already installed (see ${own.path}); use --force to write it again`)
    }

    const values = {
      name,
      kebab,
      camel: name[0]!.toLowerCase() + name.slice(1),
      path: `/${kebab}`,
      flashCookie: `${kebab.replace(/-/g, '_')}_flash`,
    }
    const migration = isAdminMigration(cwd)
    const files = [
      ...dashboardFiles(values, existsSync(join(cwd, 'tests/server.ts'))),
      { path: own.path, content: stub('make-dash', 'routes.stub', values) },
      ...(migration ? [migration] : []),
    ]
    const withOwn = withImport(routes, own.importLine)
    const edits: { path: string; content: string }[] = withOwn === routes ? [] : [{ path: ROUTES, content: withOwn }]

    writeFiles(cwd, files, force)
    const originals = edits.map((edit) => readFileSync(join(cwd, edit.path), 'utf8'))
    try {
      for (const edit of edits) writeFileSync(join(cwd, edit.path), edit.content)
    } catch (error) {
      for (const [index, edit] of edits.entries()) writeFileSync(join(cwd, edit.path), originals[index]!)
      if (!force) for (const file of files) rmSync(join(cwd, file.path), { force: true })
      throw new CommandError(`Could not update ${ROUTES}: ${(error as Error).message}`)
    }
    for (const file of files) console.log(`Created ${file.path}`)
    for (const edit of edits) console.log(`Updated ${edit.path}`)
    // An earlier make:dash copied the introspection into the application; fw-runtime/dash has it now.
    const obsolete = OBSOLETE.map((file) => `App/Controllers/${name}/${file}`).filter((path) => existsSync(join(cwd, path)))
    if (obsolete.length > 0) console.log(`No longer used (fw-runtime/dash does their work): ${obsolete.join(', ')}; delete them.`)
    console.log(`The ${name} dashboard is at ${values.path}: run "fw migrate", register, then "fw admin:grant <your email>" and open it.`)
  },
}
