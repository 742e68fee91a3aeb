/**
 * Installed Fw applications for end-to-end tests, with ONE real `npm install` per test run.
 *
 * ```ts
 * import { installedApp } from './support/installedApp.js'
 *
 * const app = await installedApp({ template: 'api' })
 * app.dir                                        // a folder of this test's own, free to change
 * await app.run('npm', ['test'])                 // → { code, stdout, stderr }; never throws
 * await app.runOk('npx', ['tsc', '--noEmit'])    // throws with the output unless it exits 0
 * const server = await app.start()               // `node --conditions=development --import tsx public/index.ts`, PORT=0
 * await fetch(`${server.url}/health`)
 * await server.stop()
 * ```
 *
 * The first call for a template in a run scaffolds the application from this checkout, exactly as
 * the README says (`npm exec --package=<checkout> -- create-fw-app <dir> --no-git`), and installs it
 * with npm (better-sqlite3 compiles from source: about two minutes). Every call then hands out its
 * own copy (`cp -a`, node_modules included), so tests never see each other's changes.
 * `.env` holds a fresh API_KEY; `app.env()` reads it.
 *
 * Needs the e2e project's globalSetup (tests/support/globalSetup.ts), which makes the run folder
 * and removes it at the end (set FW_E2E_KEEP=1 to keep it for a look).
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseEnv } from 'node:util'
import { inject } from 'vitest'
import { checkoutRoot, run, runOk, startServer, type RunningApp, type RunOptions, type RunResult } from './process.js'

export type Template = 'api' | 'minimal'

export interface InstalledApp {
  /** The application folder (package.json, node_modules, .env, …). */
  dir: string
  /** Runs a command in the application folder, without a terminal. */
  run(command: string, args: string[], options?: Partial<RunOptions>): Promise<RunResult>
  /** Same, but throws with the output unless the command exits 0. */
  runOk(command: string, args: string[], options?: Partial<RunOptions>): Promise<RunResult>
  /**
   * Starts the application on 127.0.0.1 and a free port; by default the TypeScript entry with tsx (and the
   * `development` condition, so that its #app/* imports name the sources),
   * or any server command: `app.start(['npm', 'start'])`.
   */
  start(command?: string[], env?: Record<string, string>): Promise<RunningApp>
  /** The application's .env, parsed. */
  env(): Record<string, string>
}

function runDir(): string {
  const dir = inject('fwE2eRunDir')
  if (!dir) throw new Error('installedApp() needs the e2e project globalSetup (tests/support/globalSetup.ts)')
  return dir
}

/** Waits for another test file building the same base app (files normally run one at a time). */
async function withLock<T>(lockDir: string, work: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      mkdirSync(lockDir)
      break
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
  }
  try {
    return await work()
  } finally {
    rmSync(lockDir, { recursive: true, force: true })
  }
}

/** Scaffolds from the checkout and installs once per run and template; returns the base folder. */
async function baseApp(template: Template): Promise<string> {
  const root = runDir()
  const base = join(root, `base-${template}`, 'app')
  const ready = join(root, `base-${template}`, 'ready')
  if (existsSync(ready)) return base
  return withLock(join(root, `base-${template}.lock`), async () => {
    if (existsSync(ready)) return base
    rmSync(join(root, `base-${template}`), { recursive: true, force: true })
    mkdirSync(join(root, `base-${template}`))
    await runOk(
      'npm',
      ['exec', '--yes', `--package=${checkoutRoot}`, '--', 'create-fw-app', 'app', '--template', template, '--no-git'],
      { cwd: join(root, `base-${template}`), env: { npm_config_yes: 'true', CI: 'true' }, timeout: 900_000 },
    )
    writeFileSync(ready, new Date().toISOString())
    return base
  })
}

/** An installed application of the given starter, in a folder of its own (see the top of this file). */
export async function installedApp(options: { template?: Template } = {}): Promise<InstalledApp> {
  const base = await baseApp(options.template ?? 'api')
  const dir = join(mkdtempSync(join(runDir(), 'app-')), 'app')
  cpSync(base, dir, { recursive: true, verbatimSymlinks: true })
  const inApp = (extra: Partial<RunOptions> = {}): RunOptions => ({ ...extra, cwd: extra.cwd ?? dir })
  return {
    dir,
    run: (command, args, extra) => run(command, args, inApp(extra)),
    runOk: (command, args, extra) => runOk(command, args, inApp(extra)),
    start: (command = ['node', '--conditions=development', '--import', 'tsx', 'public/index.ts'], env = {}) =>
      startServer(command[0]!, command.slice(1), { cwd: dir, env }),
    env: () => parseEnv(readFileSync(join(dir, '.env'), 'utf8')) as Record<string, string>,
  }
}
