import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { appRoot } from '../config/appRoot.js'

/**
 * A database of the tests' own for one test run, as a vitest `globalSetup`: a fresh SQLite file in a temporary
 * folder, migrated by the application's `fw migrate`, named in `DATABASE_URL` for every test file and every server
 * a test starts, and removed when the run ends. The development database (`database/database.sqlite`, or the
 * `DATABASE_URL` of `.env`) is never opened. The application is the one in the working directory (where
 * `npm test` runs). Returns the teardown.
 *
 * @example
 * ```ts
 * // tests/database.ts, named in vitest.config.ts: test: { globalSetup: ['tests/database.ts'] }
 * export { testDatabase as default } from 'fw-runtime/testing'
 * ```
 */
export function testDatabase(): () => void {
  const root = appRoot()
  const folder = mkdtempSync(join(tmpdir(), 'fw-test-database-'))
  const url = `sqlite:${join(folder, 'database.sqlite')}`
  try {
    execFileSync(process.execPath, [fwCommand(root), 'migrate'], { cwd: root, env: { ...process.env, DATABASE_URL: url }, stdio: 'pipe' })
  } catch (error) {
    rmSync(folder, { recursive: true, force: true })
    const { stdout = '', stderr = '' } = error as { stdout?: Buffer; stderr?: Buffer }
    throw new Error(`The test database could not be migrated (fw migrate):\n${`${stdout}${stderr}`.trim() || (error as Error).message}`)
  }
  process.env.DATABASE_URL = url
  return () => rmSync(folder, { recursive: true, force: true })
}

/** The application's own `fw` (its installed fw-runtime's), whichever folder the tests run from. */
function fwCommand(root: string): string {
  const manifest = createRequire(join(root, 'package.json')).resolve('fw-runtime/package.json')
  return join(dirname(manifest), 'dist/cli/fw.js')
}
