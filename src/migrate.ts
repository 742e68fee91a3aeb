import { spawn } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import type { PackageManager } from './args.js'

/** Whether the starter comes with migrations to run (the api starter's tasks table; the minimal starter has none). */
export function hasMigrations(dir: string): boolean {
  const folder = join(dir, 'database', 'migrations')
  return existsSync(folder) && readdirSync(folder).some((file) => file.endsWith('.ts'))
}

/**
 * Runs the starter's migrations (`<pm> run migrate`, which is `fw migrate`) once its dependencies are installed, so
 * that the first `npm run dev` finds its tables, as Laravel's installer migrates its new SQLite database. Always on the
 * app's own database/database.sqlite: a DATABASE_URL of the shell is left out, so that making an app never writes
 * to a database somewhere else. Resolves to undefined once done, or to why it failed (the app stands; the user can
 * run the migrations again); _never_ rejects.
 */
export function migrateDatabase(pm: PackageManager, dir: string): Promise<string | undefined> {
  const { DATABASE_URL: _elsewhere, ...env } = process.env
  const child = spawn(pm, ['run', 'migrate'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' })
  let output = ''
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4_000)
  }
  child.stdout.on('data', keep)
  child.stderr.on('data', keep)
  return new Promise((resolve) => {
    child.once('error', (error) => resolve(`could not run ${pm} run migrate (${error.message})`))
    child.once('close', (code) => {
      const lastLine = output.trim().split('\n').at(-1) ?? ''
      resolve(code === 0 ? undefined : `${pm} run migrate failed: ${lastLine || `exit code ${code}`}`)
    })
  })
}
