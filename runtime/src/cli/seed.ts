import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Kysely } from 'kysely'
import { isProduction } from '../config/environment.js'
import { CommandError, type Command } from './Command.js'

const FOLDER = 'database/seeders'
const EXTENSIONS = /\.(ts|mts|js|mjs)$/

/** The seeders to run: the named one, else DatabaseSeeder when there is one, else every seeder in name order. */
function chooseSeeders(folder: string, only: string | undefined): { name: string; file: string }[] {
  const files = existsSync(folder) ? readdirSync(folder).filter((file) => EXTENSIONS.test(file) && !file.endsWith('.d.ts')).sort() : []
  const seeders = files.map((file) => ({ name: file.replace(EXTENSIONS, ''), file: join(folder, file) }))
  if (only !== undefined) {
    const seeder = seeders.find((candidate) => candidate.name === only)
    if (!seeder) throw new CommandError(`No seeder named ${only} in ${FOLDER} (make one with fw make:seeder ${only})`)
    return [seeder]
  }
  const main = seeders.find((candidate) => candidate.name === 'DatabaseSeeder')
  return main ? [main] : seeders
}

/**
 * Runs the chosen seeders on an open database, each in one transaction, printing a line for each:
 * `fw db:seed` and `fw migrate:fresh --seed` both come here. The database is also the application's `db()` while
 * they run, and each seeder runs inside `transaction()`: what its models write goes through the seeder's own
 * transaction (no second connection waiting for SQLite's lock, nothing left behind on PostgreSQL by a seeder that
 * fails).
 */
export async function seed(db: Kysely<any>, cwd: string, only?: string): Promise<void> {
  const seeders = chooseSeeders(join(cwd, FOLDER), only)
  if (seeders.length === 0) {
    console.log(`No seeders in ${FOLDER}: make one with fw make:seeder <Name>.`)
    return
  }
  const [{ loadTypeScript }, { transaction }, { Container }] = await Promise.all([
    import('./loadTypeScript.js'),
    import('../database/db.js'),
    import('../container/Container.js'),
  ])
  await loadTypeScript()
  Container.getInstance().instance('db', db)
  for (const seeder of seeders) {
    const module = (await import(pathToFileURL(seeder.file).href)) as { run?: unknown }
    if (typeof module.run !== 'function') throw new CommandError(`${FOLDER}/${seeder.name} exports no run(db) function`)
    const run = module.run as (db: Kysely<any>) => Promise<void>
    const started = performance.now()
    try {
      await transaction((trx) => run(trx))
    } catch (error) {
      throw new CommandError(`Seeding failed: ${seeder.name}: ${error instanceof Error ? error.message : String(error)} (nothing of it was written)`)
    }
    console.log(`Seeded  ${seeder.name}  (${Math.round(performance.now() - started)} ms)`)
  }
}

/** `fw db:seed [--class=UserSeeder] [--force]` */
export const dbSeed: Command = {
  name: 'db:seed',
  summary: 'Fill the database with the seeders in database/seeders',
  usage: 'db:seed [--class=Name] [--force]',
  details: [
    'Runs database/seeders/DatabaseSeeder.ts when there is one (it may run others), else every seeder in name order;',
    '--class runs one. Each seeder exports run(db) and runs in a transaction: a failing one writes nothing.',
    '--force  needed in production (NODE_ENV or APP_ENV = production)',
  ],
  options: { class: { type: 'string' }, force: { type: 'boolean', short: 'f' } },
  async run({ values, cwd }) {
    const { loadEnv } = await import('../config/loadEnv.js')
    loadEnv(join(cwd, '.env'))
    if (isProduction() && values.force !== true) {
      throw new CommandError('fw db:seed writes rows into the production database: run it again with --force if you mean it')
    }
    const { createDatabase } = await import('../database/createDatabase.js')
    const db = createDatabase(process.env.DATABASE_URL, cwd)
    try {
      await seed(db, cwd, typeof values.class === 'string' ? values.class : undefined)
    } finally {
      await db.destroy()
    }
    return 0
  },
}
