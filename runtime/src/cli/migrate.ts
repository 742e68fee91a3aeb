import { isProduction } from '../config/environment.js'
import type { Command, CommandInput } from './Command.js'
import { CommandError } from './Command.js'
import { SCHEMA_TYPES_FILE, schemaTypesLine } from './dbTypes.js'
import { table } from './table.js'
import { withDatabase, type Database } from './withDatabase.js'

type MigratorModule = typeof import('../database/Migrator.js')
type Migrator = InstanceType<MigratorModule['Migrator']>
type MigrationRun = Awaited<ReturnType<Migrator['migrate']>>

/** The database with a Migrator over the application's migrations, which may be TypeScript. */
async function withMigrator<T>(
  command: string,
  cwd: string,
  work: (migrator: Migrator, db: Database) => Promise<T>,
  afterRun?: (db: Database) => Promise<void>,
): Promise<T> {
  const [{ Migrator }] = await Promise.all([
    import('../database/Migrator.js'),
    import('./loadTypeScript.js').then(({ loadTypeScript }) => loadTypeScript()),
  ])
  return withDatabase(command, cwd, (db) => work(new Migrator({ db, folder: `${cwd}/database/migrations`, afterRun }), db))
}

/**
 * Rewrites `database/schema.d.ts` after a run that succeeded, in development, when the tables changed: under the
 * run's lock (`afterRun`), so a second `fw migrate` that waited finds it written. `print` then says so in one line,
 * after the run's own. Types that cannot be written are one warning: the migration stays a success. Not in
 * production, nor in a test run (`NODE_ENV=test`, which vitest sets): that migrates a database of its own, and
 * leaves the app's files be.
 */
function schemaTypes(input: CommandInput): { afterRun?: (db: Database) => Promise<void>; print(code: number): number } {
  let line: string | undefined
  let warning: string | undefined
  const skip = isProduction() || process.env.NODE_ENV === 'test' || input.values['no-types'] === true
  return {
    afterRun: skip
      ? undefined
      : async (db) => {
          try {
            const { writeSchemaTypes } = await import('../database/schemaTypes/writeSchemaTypes.js')
            const result = await writeSchemaTypes(db, input.cwd)
            if (result.state !== 'current') line = schemaTypesLine(result)
          } catch (error) {
            const message = (error instanceof Error ? error.message : String(error)).split('\n')[0]
            warning = `Warning: ${SCHEMA_TYPES_FILE} could not be written (${message}); run fw db:types to try again`
          }
        },
    print(code) {
      if (line) console.log(line)
      if (warning) console.error(warning)
      return code
    },
  }
}

/** `--no-types`, for the commands that rewrite database/schema.d.ts. */
const NO_TYPES = { 'no-types': { type: 'boolean' } } as const
const NO_TYPES_DETAIL = `In development it then rewrites ${SCHEMA_TYPES_FILE} when the tables changed; --no-types leaves it as it is.`

/** Prints what a run did; a failure becomes one line and exit code 1. */
function report(run: MigrationRun, nothing: string, verbose = false): number {
  for (const result of run.results) {
    console.log(`${result.direction === 'up' ? 'Migrated' : 'Rolled back'}  ${result.name}  (${Math.round(result.ms)} ms)`)
  }
  if (run.error) {
    const cause = verbose && run.error.cause instanceof Error && run.error.cause.stack ? `\n${run.error.cause.stack}` : ''
    console.error(`Migration failed: ${run.error.message}${cause}`)
    return 1
  }
  if (run.results.length === 0) console.log(nothing)
  return 0
}

function steps(input: CommandInput): number | undefined {
  const step = input.values.step
  if (step === undefined) return undefined
  const count = Number(step)
  if (typeof step !== 'string' || !/^\d+$/.test(step) || count < 1) {
    throw new CommandError(`--step must be a whole number of migrations, 1 or more (got "${String(step)}")`)
  }
  return count
}

export const migrate: Command = {
  name: 'migrate',
  summary: 'Run the pending migrations as one batch',
  usage: 'migrate [--no-types]',
  details: ['Each migration runs in its own transaction; a failing one is not recorded and stops the run.', NO_TYPES_DETAIL],
  options: NO_TYPES,
  async run(input) {
    const types = schemaTypes(input)
    return withMigrator('migrate', input.cwd, async (migrator) => types.print(report(await migrator.migrate(), 'Nothing to migrate.', input.verbose)), types.afterRun)
  },
}

export const migrateRollback: Command = {
  name: 'migrate:rollback',
  summary: 'Roll back the last batch of migrations (or the last N with --step)',
  usage: 'migrate:rollback [--step=N] [--no-types]',
  details: [NO_TYPES_DETAIL],
  options: { step: { type: 'string' }, ...NO_TYPES },
  async run(input) {
    const count = steps(input)
    const types = schemaTypes(input)
    return withMigrator(
      'migrate:rollback',
      input.cwd,
      async (migrator) => types.print(report(await migrator.rollback({ steps: count }), 'Nothing to roll back.', input.verbose)),
      types.afterRun,
    )
  },
}

/** `NODE_ENV` or `APP_ENV` (from the environment or `.env`) says production. */
function production(): string | undefined {
  if (process.env.NODE_ENV === 'production') return 'NODE_ENV=production'
  if (process.env.APP_ENV === 'production') return 'APP_ENV=production'
  return undefined
}

/** Which database a URL names, without its password: for messages. */
function databaseName(url: string | undefined): string {
  if (!url) return 'the SQLite database database/database.sqlite'
  try {
    const parsed = new URL(url)
    if (parsed.protocol.startsWith('postgres')) return `the PostgreSQL database ${parsed.pathname.slice(1)} on ${parsed.host}`
    if (parsed.protocol === 'mysql:' || parsed.protocol === 'mariadb:') return `the MySQL database ${parsed.pathname.slice(1)} on ${parsed.host}`
  } catch {}
  return `the SQLite database ${url.replace(/^(sqlite|file):(\/\/)?/, '')}`
}

function list(names: string[]): string {
  return names.length <= 10 ? names.join(', ') : `${names.slice(0, 10).join(', ')} and ${names.length - 10} more`
}

/** In production, a command that destroys data runs only with --force; it says what it would destroy. */
function refuseInProduction(input: CommandInput, command: string, what: string): void {
  const mode = production()
  if (!mode || input.values.force === true) return
  throw new CommandError(`${command} ${what}. This is production (${mode}): run it again with --force if that is what you want.`)
}

export const migrateReset: Command = {
  name: 'migrate:reset',
  summary: 'Roll back every migration',
  usage: 'migrate:reset [--force] [--no-types]',
  details: ['In production (NODE_ENV or APP_ENV = production) it needs --force, and says which migrations it would roll back.', NO_TYPES_DETAIL],
  options: { force: { type: 'boolean' }, ...NO_TYPES },
  async run(input) {
    const types = schemaTypes(input)
    return withMigrator('migrate:reset', input.cwd, async (migrator) => {
      if (production()) {
        const ran = (await migrator.status({ readOnly: true })).filter((migration) => migration.batch !== undefined).map((migration) => migration.name)
        refuseInProduction(input, 'migrate:reset', `rolls back every migration of ${databaseName(process.env.DATABASE_URL)} (${ran.length}: ${list(ran.reverse())}), dropping what they created`)
      }
      return types.print(report(await migrator.reset(), 'Nothing to roll back.', input.verbose))
    }, types.afterRun)
  },
}

export const migrateFresh: Command = {
  name: 'migrate:fresh',
  summary: 'Drop every table, then run every migration',
  usage: 'migrate:fresh [--seed] [--force] [--no-types]',
  details: [
    'In production (NODE_ENV or APP_ENV = production) it needs --force, and says which tables it would drop.',
    NO_TYPES_DETAIL,
    '--seed  run the seeders afterwards, as fw db:seed does',
  ],
  options: { force: { type: 'boolean' }, seed: { type: 'boolean' }, ...NO_TYPES },
  async run(input) {
    const types = schemaTypes(input)
    return withMigrator('migrate:fresh', input.cwd, async (migrator, db) => {
      if (production()) {
        const { MIGRATIONS_LOCK_TABLE } = await import('../database/MigrationLock.js')
        const tables = (await db.introspection.getTables()).map((table) => table.name).filter((name) => name !== MIGRATIONS_LOCK_TABLE)
        refuseInProduction(input, 'migrate:fresh', `drops every table and view of ${databaseName(process.env.DATABASE_URL)} (${tables.length}: ${list(tables)}) with their data, then runs every migration`)
        console.log(`Dropping ${tables.length} tables and views: ${list(tables)}`)
      }
      const code = types.print(report(await migrator.fresh(), 'Dropped every table; there are no migrations to run.', input.verbose))
      if (code === 0 && input.values.seed === true) await (await import('./seed.js')).seed(db, input.cwd)
      return code
    }, types.afterRun)
  },
}

export const migrateUnlock: Command = {
  name: 'migrate:unlock',
  summary: 'Clear the migration lock left by a fw migrate that died',
  usage: 'migrate:unlock [--force]',
  details: [
    'SQLite: removes the lock row when its lease ran out (or its owner ended); a live lease needs --force.',
    'A waiting fw migrate takes an expired lease over by itself, within 20 s.',
    'PostgreSQL: shows the session holding the advisory lock; --force ends that session.',
  ],
  options: { force: { type: 'boolean' } },
  async run(input) {
    const { inspectMigrationLock } = await import('../database/MigrationLock.js')
    return withMigrator('migrate:unlock', input.cwd, async (_migrator, db) => {
      const force = input.values.force === true
      const { holder, cleared } = await inspectMigrationLock(db, { clear: true, force })
      if (!holder) {
        console.log('No fw migrate holds the migration lock.')
        return 0
      }
      if (cleared) {
        console.log(`Released the migration lock of ${holder.owner} (since ${holder.lockedAt}).`)
        return 0
      }
      throw new CommandError(
        holder.stale
          ? `The migration lock of ${holder.owner} could not be released`
          : `${holder.owner} holds the migration lock since ${holder.lockedAt} and is alive: wait for it to finish, or run fw migrate:unlock --force`,
      )
    })
  },
}

export const migrateStatus: Command = {
  name: 'migrate:status',
  summary: 'Show which migrations ran, in which batch',
  usage: 'migrate:status',
  async run({ cwd }) {
    return withMigrator('migrate:status', cwd, async (migrator) => {
      const migrations = await migrator.status()
      if (migrations.length === 0) {
        console.log('No migrations in database/migrations.')
        return 0
      }
      const rows = migrations.map((migration) => [
        migration.name,
        migration.batch === undefined ? '' : String(migration.batch),
        migration.batch === undefined ? 'Pending' : migration.hasFile ? 'Ran' : 'Ran (file missing)',
      ])
      console.log(table(['Migration', 'Batch', 'Status'], rows))
      return 0
    })
  },
}
