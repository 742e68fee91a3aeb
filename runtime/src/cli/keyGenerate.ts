import { existsSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { parseEnv } from 'node:util'
import { CommandError, type Command } from './Command.js'

/** A line that sets APP_KEY, as Node's .env parser (loadEnv) reads one: maybe indented or after `export`. */
const APP_KEY_DEFINITION = /^[ \t]*(?:export[ \t]+)?APP_KEY[ \t]*=/gm
/**
 * Such a line whose value ends on it: quoted or not, maybe a `#` comment after it. Group 1 is the line up to its `=`,
 * group 2 the comment after the value with the spaces before it; a CR before the line's end stays where it is.
 */
const APP_KEY_LINE = /^([ \t]*(?:export[ \t]+)?APP_KEY[ \t]*=)[ \t]*?(?:"[^"\r\n]*"|'[^'\r\n]*'|`[^`\r\n]*`|(?![ \t]*["'`])[^#\r\n]*?)([ \t]*(?:#[^\r\n]*)?)(?=\r?$)/gm

/** `fw key:generate [--show] [--force]`, as Laravel's `php artisan key:generate`. */
export const keyGenerate: Command = {
  name: 'key:generate',
  summary: 'Set APP_KEY in .env to a new random key (making .env from .env.example when there is none)',
  usage: 'key:generate [--show] [--force]',
  details: [
    'Writes APP_KEY=base64:<32 random bytes>, the key that encrypts sessions, into .env; every other line stays as',
    'it is. Without a .env, it is made from .env.example (after git clone: cp .env.example .env && npx fw key:generate',
    'does the same). An APP_KEY that is set is replaced only with --force: what was sealed with the old key (signed-in',
    'sessions) stops opening, unless the old key moves to APP_PREVIOUS_KEYS.',
    '--show   print a new key, write nothing',
    '--force  replace an APP_KEY that is set',
  ],
  options: { show: { type: 'boolean' }, force: { type: 'boolean', short: 'f' } },
  async run({ values, cwd }) {
    const { generateAppKey } = await import('../session/generateAppKey.js')
    const key = generateAppKey()
    if (values.show === true) {
      console.log(key)
      return
    }
    const envFile = join(cwd, '.env')
    const env = readIfThere(envFile, '.env')
    const example = env === undefined ? readIfThere(join(cwd, '.env.example'), '.env.example') : undefined
    const text = env ?? example ?? ''
    if (env !== undefined && (parseEnv(env) as Record<string, string>).APP_KEY && values.force !== true) {
      throw new CommandError(
        'APP_KEY is already set in .env; use --force to replace it (sessions and other values sealed with the old key stop opening unless you move it to APP_PREVIOUS_KEYS)',
      )
    }
    writeAtomically(envFile, withAppKey(text, key))
    if (env !== undefined) console.log('Wrote a new APP_KEY to .env')
    else if (example !== undefined) console.log('Created .env from .env.example with a new APP_KEY')
    else console.log('Created .env with a new APP_KEY')
  },
}

/** The file's text, or undefined when there is no such file; any other failure is one line. */
function readIfThere(file: string, name: string): string | undefined {
  try {
    return readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw new CommandError(`Could not read ${name}: ${(error as Error).message}`)
  }
}

/**
 * The .env text with `key` as the value of its APP_KEY lines (added at the end when it has none), every other
 * byte as it was. A value quoted over several lines is refused rather than half-replaced.
 */
function withAppKey(text: string, key: string): string {
  const definitions = text.match(APP_KEY_DEFINITION)?.length ?? 0
  if (definitions !== (text.match(APP_KEY_LINE)?.length ?? 0)) {
    throw new CommandError('The APP_KEY of .env is a quoted value over several lines: set APP_KEY by hand to the key that fw key:generate --show prints')
  }
  const eol = text.includes('\r\n') ? '\r\n' : '\n'
  return definitions > 0
    ? text.replace(APP_KEY_LINE, (_line, start: string, end: string) => `${start}${key}${end}`)
    : `${text}${text === '' || text.endsWith('\n') ? '' : eol}APP_KEY=${key}${eol}`
}

/**
 * Writes a file whole or not at all: into a temporary file beside it, then renamed over it, keeping its mode. A
 * symbolic link (a .env shared between checkouts) keeps pointing where it did: its target is written.
 */
function writeAtomically(file: string, content: string): void {
  const target = existsSync(file) ? realpathSync(file) : file
  const temporary = join(dirname(target), `.${basename(target)}.${process.pid}.tmp`)
  try {
    writeFileSync(temporary, content, existsSync(target) ? { mode: statSync(target).mode & 0o777 } : {})
    renameSync(temporary, target)
  } catch (error) {
    rmSync(temporary, { force: true })
    throw new CommandError(`Could not write .env: ${(error as Error).message}`)
  }
}
