import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'

const runtime = fileURLToPath(new URL('../../', import.meta.url))
/** The built `fw` command: these tests run what ships (`npm run build -w fw-runtime` first). */
export const FW = join(runtime, 'dist/cli/fw.js')
/** The api starter's package.json `imports`. */
const STARTER_IMPORTS: unknown = JSON.parse(readFileSync(join(runtime, '../template/api/package.json'), 'utf8')).imports

export interface FwResult {
  code: number
  stdout: string
  stderr: string
}

/** A minimal application folder that depends on this checkout's fw-runtime through a symlink. */
export interface FwApp {
  dir: string
  fw(args: string[], env?: NodeJS.ProcessEnv): Promise<FwResult>
  write(path: string, content: string): void
  /** A file of the application, as text. */
  read(path: string): string
  /** The files below a folder of the application (relative to it, sorted); none when it does not exist. */
  files(folder: string): string[]
  remove(): void
}

export function createFwApp(): FwApp {
  if (!existsSync(FW)) throw new Error(`${FW} is missing: run npm run build -w fw-runtime first`)
  const dir = mkdtempSync(join(tmpdir(), 'fw-app-'))
  mkdirSync(join(dir, 'node_modules'))
  symlinkSync(runtime, join(dir, 'node_modules/fw-runtime'), 'dir')
  const write = (path: string, content: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), content)
  }
  // The starters' `imports` (#app/*, #routes/*), so that generated code imports as it does in a new application.
  write('package.json', JSON.stringify({ name: 'fw-test-app', private: true, type: 'module', imports: STARTER_IMPORTS }))
  write('routes/web.ts', "import { Route } from 'fw-runtime'\n\nRoute.get('/', () => ({ status: 'running' })).name('home')\n")
  write(
    'public/index.ts',
    [
      "import { Container, Router, loadEnv, start } from 'fw-runtime'",
      '',
      'loadEnv()',
      'const router = new Router(Container.getInstance())',
      "await router.loadRoutesFromFile(new URL('../routes/web.ts', import.meta.url))",
      'await start(router)',
      '',
    ].join('\n'),
  )
  return {
    dir,
    write,
    read: (path) => readFileSync(join(dir, path), 'utf8'),
    files: (folder) => {
      const root = join(dir, folder)
      if (!existsSync(root)) return []
      return readdirSync(root, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => join(entry.parentPath, entry.name).slice(root.length + 1))
        // The app's own files: node_modules/fw-runtime links to this checkout, whose fixtures are not the app's.
        .filter((path) => !path.startsWith('node_modules/'))
        .sort()
    },
    fw: (args, env = {}) => runFw(dir, args, env),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  }
}

/** `fw <args>` in `cwd`; with `input`, piped to its standard input (as `fw tinker < script.ts`). */
export function runFw(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}, input?: string): Promise<FwResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [FW, ...args], {
      cwd,
      env: cleanEnv(env),
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk))
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk))
    child.once('error', reject)
    child.once('close', (code) => resolve({ code: code ?? 1, stdout, stderr }))
    if (input !== undefined) child.stdin!.end(input)
  })
}

/** A `notes` table (its migration) and its model, `App/Models/Note.ts`: a model for an app's command or tinker to use. */
export function writeNotes(app: FwApp): void {
  app.write(
    'database/migrations/20260101000000_create_notes_table.ts',
    [
      "import { id, timestamps, type Kysely } from 'fw-runtime'",
      'export async function up(db: Kysely<any>): Promise<void> {',
      "  await db.schema.createTable('notes').$call(id(db)).addColumn('title', 'varchar(255)', (column) => column.notNull()).$call(timestamps()).execute()",
      '}',
      '',
    ].join('\n'),
  )
  app.write('App/Models/Note.ts', "import { Model } from 'fw-runtime'\n\nexport class Note extends Model('notes') {}\n")
}

/** The test process's environment without the variables an app reads, plus `extra`. */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = { ...process.env }
  // NODE_ENV too: vitest sets it to `test`, which an app's own test run has, not the app a test drives.
  for (const key of ['DATABASE_URL', 'PORT', 'HOST', 'FW_SERVER', 'APP_DEBUG', 'NODE_ENV', 'QUEUE_DRIVER']) delete env[key]
  return { ...env, ...extra }
}

/** An `fw` command left running (a server, a worker, a scheduler), with its output so far. */
export interface RunningFw {
  child: ChildProcess
  output(): string
  /** Its exit code; 137 when it was killed with SIGKILL. */
  exited: Promise<number>
}

/** Starts `fw <args>` in the app, stdout and stderr kept together; the test stops it. */
export function startFw(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): RunningFw {
  const child = spawn(process.execPath, [FW, ...args], { cwd, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk))
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk))
  const exited = new Promise<number>((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal === 'SIGKILL' ? 137 : 1))))
  return { child, output: () => output, exited }
}

/** The port a started `fw start` prints once it listens; rejects with its output when it exits first. */
export function listeningPort({ child, output, exited }: RunningFw): Promise<number> {
  return new Promise((resolve, reject) => {
    // startFw's own listeners run first, so output() already holds the chunk.
    const check = () => {
      const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output())
      if (match) resolve(Number(match[1]))
    }
    child.stdout!.on('data', check)
    child.stderr!.on('data', check)
    void exited.then((code) => reject(new Error(`fw exited with ${code}: ${output()}`)))
  })
}

/** Stops the processes a test started, each with SIGTERM, then SIGKILL if it is still running 5 s later; empties the list. */
export async function stopProcesses(children: ChildProcess[]): Promise<void> {
  for (const child of children.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null) continue
    const exited = once(child, 'exit')
    child.kill('SIGTERM')
    const force = setTimeout(() => child.kill('SIGKILL'), 5_000)
    await exited
    clearTimeout(force)
  }
}

/** Waits until `condition` holds, looking every 50 ms; fails naming `what` after `timeoutMs`. Resolves to the wait. */
export async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<number> {
  const start = Date.now()
  while (!(await condition())) {
    if (Date.now() - start > timeoutMs) throw new Error(`Waited ${timeoutMs} ms for ${what}`)
    await sleep(50)
  }
  return Date.now() - start
}

/** Whether a process (one the test started) is still running. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
