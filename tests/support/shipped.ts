/**
 * A generated application proven the way a user ships it (DESIGN.md, "Proven the way a user ships it"): it
 * type-checks, its own tests pass without touching its development database, `npm run build` leaves no
 * package.json in dist/, and the build answers under `fw start` and under `node <app>/dist/public/index.js`
 * started from another folder.
 *
 * ```ts
 * await passesItsOwnChecks(app)
 * await buildAndStart(app, async ({ url }) => {
 *   expect((await fetch(`${url}/hello`)).status).toBe(200)
 * })
 * ```
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { expect } from 'vitest'
import { freePort } from '../../runtime/test/support/freePort.js'
import type { InstalledApp } from './installedApp.js'
import { startServer, type RunningApp } from './process.js'

/** A built application answering on `url`, started one of the two ways a user starts it. */
export interface ShippedServer extends RunningApp {
  /** `fw start` (production: it sets NODE_ENV) or `node dist/public/index.js` from another folder. */
  how: 'fw start' | 'node dist/public/index.js'
}

/**
 * `tsc --noEmit` and `npm test` pass, and the tests left the development database (`database/`) as it was:
 * they have their own (tests/database.ts, and make:auth's tests a file of their own).
 */
export async function passesItsOwnChecks(app: InstalledApp): Promise<string> {
  await app.runOk('npx', ['tsc', '--noEmit'])
  const before = databaseFolder(app)
  const tests = stripVTControlCharacters((await app.runOk('npm', ['test'])).stdout)
  expect(tests).toMatch(/Tests +\d+ passed/)
  expect(tests).not.toMatch(/(Tests|Test Files) .*failed/)
  expect(databaseFolder(app), 'npm test changed the development database').toEqual(before)
  return tests
}

/**
 * `npm run build`, then `answers(server)` against the build under `fw start` and under
 * `node <app>/dist/public/index.js` run from a folder outside the application; both are stopped afterwards.
 */
export async function buildAndStart(
  app: InstalledApp,
  answers: (server: ShippedServer) => Promise<void>,
  { queueWorkers = false }: { queueWorkers?: boolean } = {},
): Promise<void> {
  await app.runOk('npm', ['run', 'build'])
  expect(packageFiles(join(app.dir, 'dist')), 'the build has a package.json: its imports would point at dist/dist/').toEqual([])
  const elsewhere = mkdtempSync(join(tmpdir(), 'fw-elsewhere-'))
  const fw = join(app.dir, 'node_modules/.bin/fw')
  try {
    // With queueWorkers, the jobs run as a user runs them in production: fw start --queue-workers=1, or fw queue:work
    // beside the server.
    const starts: [ShippedServer['how'], string[], string][] = [
      ['fw start', [fw, 'start', ...(queueWorkers ? ['--queue-workers=1'] : [])], app.dir],
      ['node dist/public/index.js', [process.execPath, join(app.dir, 'dist/public/index.js')], elsewhere],
    ]
    for (const [how, [command, ...args], cwd] of starts) {
      const beside = queueWorkers && how !== 'fw start' ? await startServer(fw, ['queue:work'], { cwd: app.dir, env: { NODE_ENV: 'production' }, ready: /Fw queue worker / }) : undefined
      const running = await startServer(command!, args, { cwd, env: { PORT: String(await freePort()) } })
      const output = () => `${running.output()}${beside ? `\n--- fw queue:work output ---\n${beside.output()}` : ''}`
      try {
        await answers({ ...running, how })
      } catch (error) {
        throw new Error(`Under ${how}: ${(error as Error).message}\n--- server output ---\n${output()}`, { cause: error })
      } finally {
        await Promise.all([running.stop(), beside?.stop()])
      }
      expect(output(), `${how} printed an error`).not.toMatch(/ERR_MODULE_NOT_FOUND|Error:|uncaught/i)
    }
  } finally {
    rmSync(elsewhere, { recursive: true, force: true })
  }
}

/** Every file of the app's database/ folder with a hash of its bytes (SQLite files and their -wal/-shm). */
function databaseFolder(app: InstalledApp): Record<string, string> {
  const folder = join(app.dir, 'database')
  const files: Record<string, string> = {}
  for (const name of readdirSync(folder)) {
    if (!/\.sqlite/.test(name)) continue
    files[name] = createHash('sha256').update(readFileSync(join(folder, name))).digest('hex')
  }
  return files
}

/** The package.json files below a folder (relative paths). */
function packageFiles(folder: string): string[] {
  if (!existsSync(folder)) return []
  return readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((path) => path === 'package.json' || path.endsWith('/package.json'))
}
