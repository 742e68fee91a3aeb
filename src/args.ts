import { parseArgs } from 'node:util'
import { suggest } from '../runtime/src/cli/suggest.js'
import { CliError } from './CliError.js'

export const TEMPLATES = ['api', 'minimal'] as const
export type Template = (typeof TEMPLATES)[number]

export const PACKAGE_MANAGERS = ['npm', 'pnpm', 'yarn'] as const
export type PackageManager = (typeof PACKAGE_MANAGERS)[number]

export interface CliArgs {
  dir: string | undefined
  template: Template | undefined
  yes: boolean
  overwrite: boolean
  install: boolean
  git: boolean
  pm: PackageManager | undefined
  runtime: string | undefined
  help: boolean
  version: boolean
}

export const HELP = `Usage: create-fw-app [dir] [options]

Creates a new Fw application in <dir> (default: my-fw-app).

  npm create fw-app@latest my-app
  npm create fw-app@latest my-app -- --template minimal

Options:
  -t, --template <name>  starter: api (every sample route, the default) or minimal (GET / only)
  -y, --yes              never ask; use the defaults for what is not given
      --overwrite        empty a non-empty <dir> first (its .git folder is kept)
      --no-install       do not install the dependencies
      --no-git           do not create a git repository
      --pm <name>        install with npm, pnpm or yarn (default: the one that runs this command)
      --runtime <spec>   the fw-runtime dependency to write, e.g. ^0.1.0 or file:../fw-runtime.tgz
  -h, --help             show this help
  -v, --version          show the version`

/** The long options create-fw-app takes, as they are typed. */
const OPTIONS = {
  template: { type: 'string', short: 't' },
  yes: { type: 'boolean', short: 'y' },
  overwrite: { type: 'boolean' },
  'no-install': { type: 'boolean' },
  'no-git': { type: 'boolean' },
  pm: { type: 'string' },
  runtime: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], what: string): T | undefined {
  if (value === undefined) return undefined
  if ((allowed as readonly string[]).includes(value)) return value as T
  throw new CliError(`Unknown ${what} "${value}": choose ${allowed.join(' or ')}${didYouMean(value, allowed)}`)
}

/** `. Did you mean "minimal"?` when a candidate is near what was typed (a typo), else nothing. */
function didYouMean(typed: string, candidates: readonly string[], prefix = ''): string {
  const nearest = suggest(typed, candidates)
  return nearest ? `. Did you mean "${prefix}${nearest}"?` : ''
}

/** Parses the command line; an unknown option or value is a CliError naming it. */
export function parseCliArgs(argv: string[]): CliArgs {
  let parsed
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: OPTIONS,
    })
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    const unknown = /Unknown option '([^']+)'/.exec(message)
    if (unknown) {
      const typed = unknown[1]!.replace(/^--?/, '').split('=')[0]!
      throw new CliError(`Unknown option ${unknown[1]}${didYouMean(typed, Object.keys(OPTIONS), '--')} (see create-fw-app --help)`)
    }
    throw new CliError(`${message.split('. ')[0]} (see create-fw-app --help)`)
  }
  const { values, positionals } = parsed
  if (positionals.length > 1) {
    throw new CliError(`Expected one directory, got ${positionals.length}: ${positionals.join(' ')} (quote a name with spaces)`)
  }
  return {
    dir: positionals[0],
    template: oneOf(values.template, TEMPLATES, 'template'),
    yes: values.yes ?? false,
    overwrite: values.overwrite ?? false,
    install: !values['no-install'],
    git: !values['no-git'],
    pm: oneOf(values.pm, PACKAGE_MANAGERS, 'package manager'),
    runtime: values.runtime,
    help: values.help ?? false,
    version: values.version ?? false,
  }
}
