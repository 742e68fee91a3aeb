import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createDatabase } from '../../src/database/createDatabase.js'
import { createFwApp, runFw, writeNotes, type FwApp, type FwResult } from '../support/fwApp.js'
import { startPostgres, type TestPostgres } from '../support/postgres.js'

/** Each run of fw boots the app with TypeScript: a few seconds on a busy machine. */
const TIMEOUT = 90_000

/** An app with a model, its table, and a service its bootstrap/app.ts binds: what tinker must have booted. */
let app: FwApp
beforeEach(() => {
  app = createFwApp()
  writeNotes(app)
  app.write('App/Services/Greeter.ts', 'export class Greeter {\n  greet(name: string): string {\n    return `Hello, ${name}`\n  }\n}\n')
  app.write(
    'bootstrap/app.ts',
    [
      "import type { Container, Router } from 'fw-runtime'",
      "import { Greeter } from '#app/Services/Greeter.js'",
      '',
      'export function configure(container: Container, _router: Router): void {',
      "  container.singleton('greeter', Greeter)",
      '}',
      '',
    ].join('\n'),
  )
})
afterEach(() => app.remove())

/** `fw <args>` in the app with `input` piped to its standard input, as `fw tinker < script.ts` does. */
function fwWithInput(args: string[], input: string, env: NodeJS.ProcessEnv = {}): Promise<FwResult> {
  return runFw(app.dir, args, env, input)
}

/** A session as a user types it: TypeScript, top-level await, a model, an import of the app's, a multi-line function. */
const SESSION = [
  "const note: Note = await Note.create({ title: 'First' })",
  "await new Promise((resolve) => setTimeout(resolve, 200)); await Note.create({ title: 'Second' }); 'slept'",
  "(await Note.query().oldest('id').execute()).map((row) => row.title).join('+')",
  "import { Note as Again } from '#app/Models/Note.js'",
  '(await Again.findOrFail(note.id)).title',
  'function twice(value: number,',
  '  times: number = 2): number {',
  '  return value * times',
  '}',
  'twice(21)',
  "(await db().selectFrom('notes').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow()).count",
  "container.make<{ greet(name: string): string }>('greeter').greet('tinker')",
  '',
].join('\n')

function expectSession(result: FwResult): void {
  expect(result.stderr).toBe('')
  expect(result.code).toBe(0)
  const lines = result.stdout.split('\n')
  // Each line waited for the one before, the sleep included: the list holds both rows, in order.
  expect(lines).toContain("'slept'")
  expect(lines).toContain("'First+Second'")
  expect(lines).toContain("'First'")
  expect(result.stdout).toContain('42')
  expect(lines).toContain("'Hello, tinker'")
}

describe('fw tinker on SQLite', () => {
  beforeEach(async () => {
    const migrated = await app.fw(['migrate'])
    expect(migrated.code, migrated.stdout + migrated.stderr).toBe(0)
  }, 60_000)

  it('runs piped TypeScript line by line on the booted app, each await finished before the next line, and keeps the history in storage/', async () => {
    const result = await fwWithInput(['tinker'], SESSION)

    expectSession(result)
    expect(result.stdout).toMatch(/^2$/m)
    const db = createDatabase(undefined, app.dir)
    try {
      expect(await db.selectFrom('notes' as never).select('title' as never).orderBy('id' as never).execute()).toEqual([{ title: 'First' }, { title: 'Second' }])
    } finally {
      await db.destroy()
    }
    const history = app.read('storage/tinker_history').split('\n')
    // Newest first, as Node's REPL keeps it.
    expect(history[0]).toBe("container.make<{ greet(name: string): string }>('greeter').greet('tinker')")
    expect(history).toContain("const note: Note = await Note.create({ title: 'First' })")
  }, TIMEOUT)

  it('shows an error and goes on with the next line', async () => {
    const result = await fwWithInput(['tinker'], "await Note.findOrFail(404)\nconst broken: = 1\n'still here'\n")

    expect(result.code).toBe(0)
    expect(result.stderr + result.stdout).toContain('Not Found')
    expect(result.stderr + result.stdout).toContain('SyntaxError')
    expect(result.stdout).toContain("'still here'")
  }, TIMEOUT)

  it('--execute runs one snippet and prints its result as node -p does, a promise awaited', async () => {
    expect(await app.fw(['tinker', '--execute', "const note: Note = await Note.create({ title: 'Once' }); note.title"])).toEqual({ code: 0, stdout: 'Once\n', stderr: '' })
    expect(await app.fw(['tinker', '-e', 'Note.count()'])).toEqual({ code: 0, stdout: '1\n', stderr: '' })
    expect(await app.fw(['tinker', '-e', '({ count: 1 + 1 })'])).toEqual({ code: 0, stdout: '{ count: 2 }\n', stderr: '' })
    expect(await app.fw(['tinker', '-e', "console.log('printed')"])).toEqual({ code: 0, stdout: 'printed\n', stderr: '' })
  }, TIMEOUT)

  it('--execute exits 1 with one line when the snippet throws, or does not parse', async () => {
    const thrown = await app.fw(['tinker', '-e', 'await Note.findOrFail(404)'])
    expect(thrown).toEqual({ code: 1, stdout: '', stderr: 'fw tinker --execute failed: HttpError: Not Found (run with --verbose for the stack)\n' })

    const unparsed = await app.fw(['tinker', '-e', 'const x: = 1'])
    expect(unparsed.code).toBe(1)
    expect(unparsed.stderr).toMatch(/^fw tinker --execute failed: SyntaxError: .+\n$/)

    const short = await app.fw(['tinker', '-e', 'Note.find('])
    expect(short).toEqual({
      code: 1,
      stdout: '',
      stderr: 'fw tinker --execute failed: SyntaxError: the code stops short (an unclosed bracket, string or block?) (run with --verbose for the stack)\n',
    })
  }, TIMEOUT)

  it('refuses production unless --force', async () => {
    for (const env of [{ NODE_ENV: 'production' }, { APP_ENV: 'production' }]) {
      const refused = await app.fw(['tinker', '-e', "await Note.create({ title: 'Prod' })"], env)
      expect(refused.code).toBe(1)
      expect(refused.stderr).toContain('fw tinker refuses to run in production')
      expect(refused.stderr).toContain('--force')
    }
    app.write('.env', 'APP_ENV=production\n')
    expect((await app.fw(['tinker', '-e', '1'])).code).toBe(1)
    // With --force it runs, on the app's build (none here: no model in scope, the code still runs).
    expect(await app.fw(['tinker', '--force', '-e', '1 + 1'])).toEqual({ code: 0, stdout: '2\n', stderr: '' })
    expect(existsSync(join(app.dir, 'storage/tinker_history'))).toBe(false)
  }, TIMEOUT)
})

describe('fw tinker on PostgreSQL', () => {
  let postgres: TestPostgres
  beforeAll(async () => {
    postgres = await startPostgres()
  }, 60_000)
  afterAll(() => postgres?.stop())

  it('runs the same session and --execute on the database of DATABASE_URL', async () => {
    app.write('.env', `DATABASE_URL=${postgres.url}\n`)
    const migrated = await app.fw(['migrate'])
    expect(migrated.code, migrated.stdout + migrated.stderr).toBe(0)

    const result = await fwWithInput(['tinker'], SESSION)
    expectSession(result)
    expect(result.stdout).toMatch(/^'?2'?$/m)

    expect(await app.fw(['tinker', '-e', "(await Note.query().oldest('id').execute()).map((note) => note.title)"])).toEqual({ code: 0, stdout: "[ 'First', 'Second' ]\n", stderr: '' })
  }, TIMEOUT)
})
