import type { Command, CommandInput } from './Command.js'
import { CommandError } from './Command.js'
import { table } from './table.js'

type MigratorModule = typeof import('../database/Migrator.js')
type Migrator = InstanceType<MigratorModule['Migrator']>
type MigrationRun = Awaited<ReturnType<Migrator['migrate']>>

/** Opens the application's database (from `.env`), runs the work, and always closes it. */
async function withMigrator<T>(cwd: string, work: (migrator: Migrator) => Promise<T>): Promise<T> {
  const [{ loadEnv }, { createDatabase }, { Migrator }] = await Promise.all([
    import('../config/loadEnv.js'),
    import('../database/createDatabase.js'),
    import('../database/Migrator.js'),
    import('./loadTypeScript.js').then(({ loadTypeScript }) => loadTypeScript()),
  ])
  loadEnv(`${cwd}/.env`)
  const db = createDatabase(process.env.DATABASE_URL, cwd)
  try {
    return await work(new Migrator({ db, folder: `${cwd}/database/migrations` }))
  } finally {
    await db.destroy()
  }
}

/** Prints what a run did; a failure becomes one line and exit code 1. */
function report(run: MigrationRun, nothing: string): number {
  for (const result of run.results) {
    console.log(`${result.direction === 'up' ? 'Migrated' : 'Rolled back'}  ${result.name}  (${Math.round(result.ms)} ms)`)
  }
  if (run.error) {
    const cause = run.error.cause instanceof Error && run.error.cause.stack && process.env.APP_DEBUG === 'true' ? `\n${run.error.cause.stack}` : ''
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
  usage: 'migrate',
  details: ['Each migration runs in its own transaction; a failing one is not recorded and stops the run.'],
  async run({ cwd }) {
    return withMigrator(cwd, async (migrator) => report(await migrator.migrate(), 'Nothing to migrate.'))
  },
}

export const migrateRollback: Command = {
  name: 'migrate:rollback',
  summary: 'Roll back the last batch of migrations (or the last N with --step)',
  usage: 'migrate:rollback [--step=N]',
  options: { step: { type: 'string' } },
  async run(input) {
    const count = steps(input)
    return withMigrator(input.cwd, async (migrator) => report(await migrator.rollback({ steps: count }), 'Nothing to roll back.'))
  },
}

export const migrateReset: Command = {
  name: 'migrate:reset',
  summary: 'Roll back every migration',
  usage: 'migrate:reset',
  async run({ cwd }) {
    return withMigrator(cwd, async (migrator) => report(await migrator.reset(), 'Nothing to roll back.'))
  },
}

export const migrateFresh: Command = {
  name: 'migrate:fresh',
  summary: 'Drop every table, then run every migration',
  usage: 'migrate:fresh',
  async run({ cwd }) {
    return withMigrator(cwd, async (migrator) => report(await migrator.fresh(), 'Dropped every table; there are no migrations to run.'))
  },
}

export const migrateStatus: Command = {
  name: 'migrate:status',
  summary: 'Show which migrations ran, in which batch',
  usage: 'migrate:status',
  async run({ cwd }) {
    return withMigrator(cwd, async (migrator) => {
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
