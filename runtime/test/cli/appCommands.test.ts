import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createDatabase } from '../../src/database/createDatabase.js'
import { createFwApp, writeNotes, type FwApp } from '../support/fwApp.js'

/** Each run of fw that finds the app's commands loads TypeScript: a few seconds on a busy machine. */
const TIMEOUT = 90_000

/**
 * An app command as a user writes it: typed arguments and options, the app's model and a service that
 * bootstrap/app.ts binds (so it only works booted), and its exit code.
 */
const SEND_DIGEST = `import { Command } from 'fw-runtime/console'
import { Note } from '#app/Models/Note.js'

export class SendDigest extends Command({
  name: 'digest:send',
  description: 'Send the digest of the day to a user',
  arguments: {
    user: { type: 'number', description: 'The id of the user' },
    topics: { variadic: true, description: 'Topics to include' },
  },
  options: {
    queue: { type: 'boolean', short: 'q', description: 'Queue the mail instead of sending it now' },
    limit: { type: 'number', default: 10, description: 'How many notes at most' },
  },
}) {
  constructor(private readonly services: { greeter: { greet(name: string): string } }) {
    super()
  }

  async handle(): Promise<number> {
    const user: number = this.arguments.user
    const topics: string[] = this.arguments.topics
    const limit: number = this.options.limit
    await Note.create({ title: \`digest for \${user}\` })
    this.info(\`\${this.services.greeter.greet(String(user))}: \${await Note.count()} notes, topics [\${topics.join(',')}], queue \${this.options.queue}, limit \${limit}\`)
    return user === 7 ? 3 : 0
  }
}
`

let app: FwApp
beforeEach(async () => {
  app = createFwApp()
  writeNotes(app)
  app.write(
    'bootstrap/app.ts',
    [
      "import type { Container, Router } from 'fw-runtime'",
      '',
      'export function configure(container: Container, _router: Router): void {',
      "  container.instance('greeter', { greet: (name: string) => `Hello ${name}` })",
      '}',
      '',
    ].join('\n'),
  )
  app.write('App/Console/Commands/SendDigest.ts', SEND_DIGEST)
  const migrated = await app.fw(['migrate'])
  expect(migrated.code, migrated.stdout + migrated.stderr).toBe(0)
}, TIMEOUT)
afterEach(() => app.remove())

describe("fw and the app's commands", () => {
  it("lists them under the app's name, after fw's own, in fw --help and fw list", async () => {
    const help = await app.fw(['--help'])
    expect(help.code).toBe(0)
    expect(help.stdout).toMatch(/\n\nCommands of fw-test-app \(App\/Console\/Commands\):\n {2}digest:send +Send the digest of the day to a user\n/)
    expect(help.stdout.indexOf('Commands of fw-test-app')).toBeGreaterThan(help.stdout.indexOf('  migrate '))
    expect((await app.fw(['list'])).stdout).toBe(help.stdout)
  }, TIMEOUT)

  it('prints the arguments and options of one with --help', async () => {
    expect(await app.fw(['digest:send', '--help'])).toEqual({
      code: 0,
      stderr: '',
      stdout: [
        'Usage: fw digest:send <user> [<topics>...] [--queue] [--limit=<number>]',
        '',
        'Send the digest of the day to a user',
        '',
        'Arguments:',
        '  <user>            The id of the user (a number)',
        '  <topics>...       Topics to include',
        '',
        'Options:',
        '  -q, --queue       Queue the mail instead of sending it now',
        '  --limit=<number>  How many notes at most (a number, default 10)',
        '',
      ].join('\n'),
    })
  }, TIMEOUT)

  it('runs one with the app booted (its model, a service of bootstrap/app.ts), typed input, and its exit code', async () => {
    expect(await app.fw(['digest:send', '42', 'news', 'sport', '-q', '--limit=3'])).toEqual({
      code: 0,
      stderr: '',
      stdout: 'Hello 42: 1 notes, topics [news,sport], queue true, limit 3\n',
    })
    expect(await app.fw(['digest:send', '7'])).toEqual({ code: 3, stderr: '', stdout: 'Hello 7: 2 notes, topics [], queue false, limit 10\n' })
    const db = createDatabase(undefined, app.dir)
    try {
      expect(await db.selectFrom('notes' as never).select('title' as never).orderBy('id' as never).execute()).toEqual([{ title: 'digest for 42' }, { title: 'digest for 7' }])
    } finally {
      await db.destroy()
    }
  }, TIMEOUT)

  it.each([
    [[], 'fw digest:send: missing the argument <user> (The id of the user) (usage: fw digest:send <user> [<topics>...] [--queue] [--limit=<number>])'],
    [['abc'], 'fw digest:send: <user> must be a number, got "abc" (usage: fw digest:send <user> [<topics>...] [--queue] [--limit=<number>])'],
    [['1', '--limit=many'], 'fw digest:send: --limit must be a number, got "many" (usage: fw digest:send <user> [<topics>...] [--queue] [--limit=<number>])'],
    [['1', '--qeue'], 'fw digest:send: unknown option "--qeue". Did you mean "--queue"? (usage: fw digest:send <user> [<topics>...] [--queue] [--limit=<number>])'],
  ])('refuses %j with one line naming the problem and the usage, exit 1', async (args, message) => {
    expect(await app.fw(['digest:send', ...args])).toEqual({ code: 1, stdout: '', stderr: `${message}\n` })
  }, TIMEOUT)

  it('suggests the nearest name, theirs or fw\'s, for a typo', async () => {
    expect(await app.fw(['digest:snd'])).toEqual({ code: 1, stdout: '', stderr: 'Unknown command "digest:snd". Did you mean "fw digest:send"? Run fw --help for the list.\n' })
  }, TIMEOUT)

  it('prints what a command throws as one line, exit 1', async () => {
    app.write(
      'App/Console/Commands/Fail.ts',
      "import { Command } from 'fw-runtime/console'\n\nexport class Fail extends Command({ name: 'fail', description: 'Fails' }) {\n  handle(): void {\n    throw new Error('the mail server is down')\n  }\n}\n",
    )
    expect(await app.fw(['fail'])).toEqual({ code: 1, stdout: '', stderr: 'fw fail failed: the mail server is down (run with --verbose for the stack)\n' })
  }, TIMEOUT)

  it("refuses a command named as one of fw's, or two of one name, naming the files; fw's list still shows", async () => {
    app.write('App/Console/Commands/Migrate.ts', "import { Command } from 'fw-runtime/console'\n\nexport class Migrate extends Command({ name: 'migrate', description: 'Mine' }) {\n  handle(): void {}\n}\n")
    const help = await app.fw(['--help'])
    expect(help.code).toBe(1)
    expect(help.stdout).toContain('  migrate ')
    expect(help.stderr).toBe('App/Console/Commands/Migrate.ts: the command name "migrate" is one of fw\'s own; give the command another name\n')
    // fw's own commands never load the app's.
    expect((await app.fw(['migrate:status'])).code).toBe(0)

    app.write('App/Console/Commands/Migrate.ts', "import { Command } from 'fw-runtime/console'\n\nexport class Again extends Command({ name: 'digest:send', description: 'Twice' }) {\n  handle(): void {}\n}\n")
    expect((await app.fw(['digest:send', '1'])).stderr).toBe(
      'Two app commands are named "digest:send" (App/Console/Commands/Migrate.ts and App/Console/Commands/SendDigest.ts): rename one\nUnknown command "digest:send". Run fw --help for the list.\n',
    )
  }, TIMEOUT)

  it('runs the build in dist/App/Console/Commands in production, not the sources', async () => {
    app.write(
      'dist/App/Console/Commands/Built.js',
      "import { Command } from 'fw-runtime/console'\n\nexport class Built extends Command({ name: 'built', description: 'From the build' }) {\n  handle() {\n    this.info('from dist')\n  }\n}\n",
    )
    const production = { NODE_ENV: 'production' }
    expect(await app.fw(['built'], production)).toEqual({ code: 0, stdout: 'from dist\n', stderr: '' })
    expect((await app.fw(['--help'], production)).stdout).toMatch(/\n {2}built +From the build\n/)
    expect((await app.fw(['digest:send', '1'], production)).stderr).toBe('Unknown command "digest:send". Run fw --help for the list.\n')
  }, TIMEOUT)

  it('says which file could not be loaded', async () => {
    app.write('App/Console/Commands/Broken.ts', "import { Missing } from '#app/Nowhere.js'\nexport const broken = Missing\n")
    const result = await app.fw(['digest:send', '1'])
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/^fw could not load App\/Console\/Commands\/Broken\.ts: .*Nowhere.*\nUnknown command "digest:send"\. Run fw --help for the list\.\n$/)
  }, TIMEOUT)
})

describe('an app without commands', () => {
  it('lists only fw\'s', async () => {
    const bare = createFwApp()
    try {
      const help = await bare.fw(['--help'])
      expect(help.code).toBe(0)
      expect(help.stdout).not.toContain('Commands of')
      expect(await bare.fw(['digest:send'])).toMatchObject({ code: 1, stderr: 'Unknown command "digest:send". Run fw --help for the list.\n' })
    } finally {
      bare.remove()
    }
  }, TIMEOUT)
})
