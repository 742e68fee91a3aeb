import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { parseEnv } from 'node:util'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Encrypter } from '../../src/session/Encrypter.js'
import { createFwApp, type FwApp } from '../support/fwApp.js'

let app: FwApp
beforeEach(() => {
  app = createFwApp()
})
afterEach(() => app.remove())

const KEY = /^base64:[A-Za-z0-9+/]{43}=$/
/** A starter's .env.example: comments, blank lines and the keys around an empty APP_KEY. */
const EXAMPLE = [
  '# The application\'s settings.',
  'APP_NAME=shop',
  '# APP_DEBUG=false',
  '',
  '# A random secret for signing.',
  'APP_KEY=',
  '',
  'API_KEY=',
  '# PORT=8000',
  '',
].join('\n')

const appKey = (text: string) => (parseEnv(text) as Record<string, string>).APP_KEY

/** The text with its one APP_KEY line replaced: what key:generate may change, and nothing else. */
const withKey = (text: string, key: string) => text.replace(/^APP_KEY=.*$/m, `APP_KEY=${key}`)

describe('fw key:generate', () => {
  it('writes a fresh key into .env and keeps every other line byte for byte', async () => {
    app.write('.env', EXAMPLE)

    const result = await app.fw(['key:generate'])

    expect(result).toEqual({ code: 0, stdout: 'Wrote a new APP_KEY to .env\n', stderr: '' })
    const env = app.read('.env')
    const key = appKey(env)!
    expect(key).toMatch(KEY)
    expect(env).toBe(withKey(EXAMPLE, key))
    // A key the runtime's Encrypter takes: 32 bytes, and what it seals opens again.
    expect(Buffer.from(key.slice('base64:'.length), 'base64')).toHaveLength(32)
    const encrypter = new Encrypter([key], 'test')
    expect(encrypter.open(encrypter.seal('hello'))).toBe('hello')
  })

  it('creates .env from .env.example when there is no .env, leaving .env.example as it was', async () => {
    app.write('.env.example', EXAMPLE)

    const result = await app.fw(['key:generate'])

    expect(result).toEqual({ code: 0, stdout: 'Created .env from .env.example with a new APP_KEY\n', stderr: '' })
    expect(app.read('.env.example')).toBe(EXAMPLE)
    const env = app.read('.env')
    expect(env).toBe(withKey(EXAMPLE, appKey(env)!))
    expect(appKey(env)).toMatch(KEY)
  })

  it('creates a .env holding only the key when there is neither .env nor .env.example', async () => {
    const result = await app.fw(['key:generate'])

    expect(result).toEqual({ code: 0, stdout: 'Created .env with a new APP_KEY\n', stderr: '' })
    expect(app.read('.env')).toMatch(/^APP_KEY=base64:[A-Za-z0-9+/]{43}=\n$/)
  })

  it('refuses to replace a key without --force: one line, exit 1, .env unchanged', async () => {
    const env = withKey(EXAMPLE, 'base64:' + Buffer.alloc(32, 1).toString('base64'))
    app.write('.env', env)

    const result = await app.fw(['key:generate'])

    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'APP_KEY is already set in .env; use --force to replace it (sessions and other values sealed with the old key stop opening unless you move it to APP_PREVIOUS_KEYS)\n',
    })
    expect(app.read('.env')).toBe(env)
  })

  it('replaces a key with --force, every other byte kept (CRLF line ends too)', async () => {
    const old = 'base64:' + Buffer.alloc(32, 1).toString('base64')
    const env = withKey(EXAMPLE, old).replaceAll('\n', '\r\n')
    app.write('.env', env)

    const result = await app.fw(['key:generate', '--force'])

    expect(result).toMatchObject({ code: 0, stdout: 'Wrote a new APP_KEY to .env\n' })
    const written = app.read('.env')
    const key = appKey(written)!
    expect(key).toMatch(KEY)
    expect(key).not.toBe(old)
    expect(written).toBe(env.replace(`APP_KEY=${old}`, `APP_KEY=${key}`))
  })

  it.each([
    ['APP_KEY=""', 'an empty quoted value'],
    ["APP_KEY=''", 'empty single quotes'],
    ['export APP_KEY=', 'an export prefix'],
    ['  APP_KEY=', 'an indent'],
    ['APP_KEY= # made by fw key:generate', 'a comment'],
  ])('takes %j (%s) as an empty key and replaces its value only', async (line) => {
    const env = EXAMPLE.replace('APP_KEY=\n', `${line}\n`)
    app.write('.env', env)

    expect((await app.fw(['key:generate'])).code).toBe(0)

    const written = app.read('.env')
    const key = appKey(written)!
    expect(key).toMatch(KEY)
    expect(written).toBe(env.replace(line, line.replace(/=("")?('')?/, `=${key}`)))
  })

  it('refuses a key quoted over several lines, rather than replace half of it', async () => {
    const env = EXAMPLE.replace('APP_KEY=\n', 'APP_KEY="first\nsecond"\n')
    app.write('.env', env)

    const result = await app.fw(['key:generate', '--force'])

    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: 'The APP_KEY of .env is a quoted value over several lines: set APP_KEY by hand to the key that fw key:generate --show prints\n',
    })
    expect(app.read('.env')).toBe(env)
  })

  it('keeps the mode of .env, and a .env that is a symbolic link stays one: its target gets the key', async () => {
    app.write('shared/app.env', EXAMPLE)
    chmodSync(join(app.dir, 'shared/app.env'), 0o600)
    symlinkSync('shared/app.env', join(app.dir, '.env'))

    expect((await app.fw(['key:generate'])).code).toBe(0)

    expect(lstatSync(join(app.dir, '.env')).isSymbolicLink()).toBe(true)
    expect(appKey(app.read('shared/app.env'))).toMatch(KEY)
    expect(statSync(join(app.dir, 'shared/app.env')).mode & 0o777).toBe(0o600)
    expect(app.files('shared')).toEqual(['app.env'])
  })

  it('adds the key at the end of a .env that has no APP_KEY line', async () => {
    app.write('.env', 'APP_NAME=shop\n# no key yet')

    expect((await app.fw(['key:generate'])).code).toBe(0)

    const written = app.read('.env')
    expect(written).toBe(`APP_NAME=shop\n# no key yet\nAPP_KEY=${appKey(written)}\n`)
  })

  it('--show prints a fresh key and writes nothing', async () => {
    app.write('.env.example', EXAMPLE)

    const first = await app.fw(['key:generate', '--show'])
    const second = await app.fw(['key:generate', '--show'])

    expect(first.code).toBe(0)
    expect(first.stderr).toBe('')
    expect(first.stdout).toMatch(/^base64:[A-Za-z0-9+/]{43}=\n$/)
    expect(second.stdout).not.toBe(first.stdout)
    expect(existsSync(join(app.dir, '.env'))).toBe(false)

    app.write('.env', withKey(EXAMPLE, 'base64:kept'))
    expect((await app.fw(['key:generate', '--show'])).code).toBe(0)
    expect(readFileSync(join(app.dir, '.env'), 'utf8')).toBe(withKey(EXAMPLE, 'base64:kept'))
  })

  it('is listed by fw --help and explained by fw key:generate --help', async () => {
    expect((await app.fw(['--help'])).stdout).toMatch(/^ {2}key:generate +Set APP_KEY/m)

    const help = await app.fw(['key:generate', '--help'])

    expect(help.code).toBe(0)
    expect(help.stdout).toContain('Usage: fw key:generate [--show] [--force]')
    expect(help.stdout).toContain('.env.example')
    expect(existsSync(join(app.dir, '.env'))).toBe(false)
  })

  it('says in one line when .env cannot be read, and writes nothing', async () => {
    // A folder where the file should be.
    mkdirSync(join(app.dir, '.env'))
    app.write('.env.example', EXAMPLE)

    const result = await app.fw(['key:generate'])

    expect(result.code).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(/^Could not read \.env: EISDIR[^\n]*\n$/)
    expect(app.files('.')).toEqual(['.env.example', 'package.json', 'public/index.ts', 'routes/web.ts'])
  })
})
