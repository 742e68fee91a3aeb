import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createFwApp, type FwApp } from '../support/fwApp.js'

const repository = fileURLToPath(new URL('../../../', import.meta.url))

/** Running a made command loads TypeScript and boots the app: a few seconds on a busy machine. */
const TIMEOUT = 90_000

let app: FwApp
beforeEach(() => {
  app = createFwApp()
})
afterEach(() => app.remove())

/** tsc on the app, as the starters check it: their tsconfig.json and @types/node. */
function typeCheck(): string {
  app.write('tsconfig.json', readFileSync(join(repository, 'template/api/tsconfig.json'), 'utf8'))
  mkdirSync(join(app.dir, 'node_modules/@types'), { recursive: true })
  if (!existsSync(join(app.dir, 'node_modules/@types/node'))) symlinkSync(join(repository, 'node_modules/@types/node'), join(app.dir, 'node_modules/@types/node'), 'dir')
  const tsc = spawnSync(process.execPath, [join(repository, 'node_modules/typescript/bin/tsc'), '-p', '.'], { cwd: app.dir, encoding: 'utf8' })
  return tsc.stdout + tsc.stderr
}

describe('fw make:command', () => {
  it('writes App/Console/Commands/<Name>.ts, named app:<kebab-case> by default, that fw lists and runs', async () => {
    expect(await app.fw(['make:command', 'SendDigest'])).toEqual({
      code: 0,
      stderr: '',
      stdout: 'Created App/Console/Commands/SendDigest.ts\nRun it with: npx fw app:send-digest\n',
    })
    const source = app.read('App/Console/Commands/SendDigest.ts')
    expect(source).toContain("import { Command } from 'fw-runtime/console'\n")
    expect(source).toContain("export class SendDigest extends Command({\n  name: 'app:send-digest',\n  description: 'Send digest',\n")
    expect(source).toContain('  async handle(): Promise<void> {\n')
    expect(source).not.toContain('{{')

    expect((await app.fw(['--help'])).stdout).toMatch(/Commands of fw-test-app \(App\/Console\/Commands\):\n {2}app:send-digest +Send digest\n/)
    expect(await app.fw(['app:send-digest'])).toEqual({ code: 0, stderr: '', stdout: 'Send digest: done\n' })
  }, TIMEOUT)

  it('takes the name fw runs it by from --command, and writes into subfolders', async () => {
    expect((await app.fw(['make:command', 'Mail/SendDigest', '--command=digest:send'])).code).toBe(0)
    expect(app.read('App/Console/Commands/Mail/SendDigest.ts')).toContain("  name: 'digest:send',\n")
    expect(await app.fw(['digest:send', '--help'])).toEqual({ code: 0, stderr: '', stdout: 'Usage: fw digest:send\n\nSend digest\n' })
  }, TIMEOUT)

  it('writes a class whose declared arguments and options are typed in handle(): tsc accepts their use, refuses their misuse', async () => {
    await app.fw(['make:command', 'SendDigest', '--command=digest:send'])
    const file = 'App/Console/Commands/SendDigest.ts'
    const uncommented = app
      .read(file)
      .replace("    // user: { type: 'number'", "    user: { type: 'number'")
      .replace("    // queue: { type: 'boolean'", "    queue: { type: 'boolean'")
      .replace('    // const { user } = this.arguments   typed from the declaration above: user is a number\n', '')
    app.write(file, uncommented.replace("    this.info('Send digest: done')", '    const user: number = this.arguments.user\n    const queue: boolean = this.options.queue\n    this.info(`${user} ${queue}`)'))
    expect(typeCheck()).toBe('')
    expect(await app.fw(['digest:send', '5', '--queue'])).toEqual({ code: 0, stderr: '', stdout: '5 true\n' })

    app.write(file, uncommented.replace("    this.info('Send digest: done')", '    const user: string = this.arguments.user\n    this.info(user + this.options.missing)'))
    const errors = typeCheck()
    expect(errors).toContain("Type 'number' is not assignable to type 'string'")
    expect(errors).toContain("Property 'missing' does not exist")
  }, TIMEOUT)

  it('never overwrites without --force', async () => {
    await app.fw(['make:command', 'SendDigest'])
    app.write('App/Console/Commands/SendDigest.ts', '// mine\n')
    expect(await app.fw(['make:command', 'SendDigest'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'App/Console/Commands/SendDigest.ts already exists; use --force to overwrite it\n',
    })
    expect(app.read('App/Console/Commands/SendDigest.ts')).toBe('// mine\n')
    expect((await app.fw(['make:command', 'SendDigest', '--force'])).code).toBe(0)
    expect(app.read('App/Console/Commands/SendDigest.ts')).toContain('export class SendDigest')
  }, TIMEOUT)

  it.each([
    [['sendDigest'], '"sendDigest" is not a valid command name: use a PascalCase class name such as SendDigest, optionally in folders (Admin/SendDigest)'],
    [['SendDigest', '--command=Digest:Send'], '"Digest:Send" is not a valid command name: use lowercase words joined by ":" or "-", such as digest:send'],
  ])('refuses %j with one line and writes nothing', async (args, message) => {
    expect(await app.fw(['make:command', ...args])).toEqual({ code: 1, stdout: '', stderr: `${message}\n` })
    expect(app.files('App')).toEqual([])
  })
})
