#!/usr/bin/env node
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { parseArgs } from 'node:util'
import type { AppCommands } from './appCommands.js'
import { CommandError, type Command, type CommandInput } from './Command.js'
import { commands } from './commands.js'
import { suggest } from './suggest.js'
import { unknownOption } from './unknownOption.js'

const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version

function help(app?: AppCommands): string {
  const width = Math.max(...[...commands, ...(app?.commands ?? [])].map((command) => command.name.length))
  const list = (shown: readonly Command[]) => shown.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`)
  return [
    `Fw ${version}`,
    '',
    'Usage: fw <command> [arguments] [options]',
    '',
    'Commands:',
    ...list(commands),
    ...(app?.commands.length ? ['', `Commands of ${app.appName} (App/Console/Commands):`, ...list(app.commands)] : []),
    '',
    'Run fw <command> --help for a command\'s arguments and options; add --verbose to see the stack of an error.',
  ].join('\n')
}

function commandHelp(command: Command): string {
  return [`Usage: fw ${command.usage}`, '', command.summary, ...(command.details ? ['', ...command.details] : [])].join('\n')
}

/**
 * The application's root: the nearest folder whose package.json depends on fw-runtime (or that has it
 * installed), so fw works from a subfolder too. Undefined outside an application.
 */
function applicationRoot(from: string): string | undefined {
  for (let folder = from; ; folder = dirname(folder)) {
    if (isApplication(folder)) return folder
    if (dirname(folder) === folder) return undefined
  }
}

function isApplication(folder: string): boolean {
  const manifest = join(folder, 'package.json')
  if (!existsSync(manifest)) return false
  if (existsSync(join(folder, 'node_modules', 'fw-runtime'))) return true
  try {
    const { dependencies = {}, devDependencies = {} } = JSON.parse(readFileSync(manifest, 'utf8')) as Record<string, Record<string, string>>
    return 'fw-runtime' in dependencies || 'fw-runtime' in devDependencies
  } catch {
    return false
  }
}

/**
 * The app's own commands (App/Console/Commands), only looked for when fw is asked for its list or for a name that
 * is not one of its own: fw's commands never pay for them.
 */
async function appCommands(): Promise<AppCommands | undefined> {
  const root = applicationRoot(process.cwd())
  if (root === undefined) return undefined
  const { loadAppCommands } = await import('./appCommands.js')
  return loadAppCommands(root, commands.map((command) => command.name))
}

async function main(args: string[]): Promise<number> {
  // --verbose works with every command, so it is taken out before the command's own options are parsed.
  const verbose = args.includes('--verbose')
  const argv = args.filter((arg) => arg !== '--verbose')
  const [name, ...rest] = argv
  if (name === undefined || name === '--help' || name === '-h' || name === 'help' || name === 'list') {
    try {
      console.log(help(await appCommands()))
    } catch (error) {
      // A broken app command must not hide fw's own list.
      console.log(help())
      console.error((error as Error).message)
      return 1
    }
    return 0
  }
  if (name === '--version' || name === '-v') {
    console.log(version)
    return 0
  }
  let command = commands.find((candidate) => candidate.name === name)
  if (!command) {
    let app: AppCommands | undefined
    try {
      app = await appCommands()
    } catch (error) {
      // Said first: it may be why the command is not found.
      console.error(error instanceof CommandError || !verbose ? (error as Error).message : (error as Error).stack)
    }
    command = app?.commands.find((candidate) => candidate.name === name)
    if (!command) {
      const nearest = suggest(name, [...commands, ...(app?.commands ?? [])].map((candidate) => candidate.name))
      console.error(`Unknown command "${name}".${nearest ? ` Did you mean "fw ${nearest}"?` : ''} Run fw --help for the list.`)
      return 1
    }
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(commandHelp(command))
    return 0
  }
  const unknown = unknownOption(rest, command.options ?? {})
  if (unknown) {
    const hint = unknown.nearest ? `. Did you mean "${unknown.nearest}"?` : ''
    console.error(`fw ${name}: unknown option "${unknown.option}"${hint} (usage: fw ${command.usage})`)
    return 1
  }
  let parsed
  try {
    parsed = parseArgs({ args: rest, options: command.options ?? {}, allowPositionals: true, strict: true })
  } catch (error) {
    console.error(`fw ${name}: ${(error as Error).message.split('\n')[0]} (usage: fw ${command.usage})`)
    return 1
  }
  const { min, max } = typeof command.arguments === 'object' ? command.arguments : { min: command.arguments ?? 0, max: command.arguments ?? 0 }
  if (parsed.positionals.length < min || parsed.positionals.length > max) {
    const problem = parsed.positionals.length < min ? 'is missing an argument' : 'takes no more arguments'
    console.error(`fw ${name} ${problem} (usage: fw ${command.usage})`)
    return 1
  }
  const cwd = applicationRoot(process.cwd())
  if (cwd === undefined) {
    console.error('fw runs inside an Fw application (a folder whose package.json depends on fw-runtime): cd into one, or create one with npm create fw-app@latest my-app')
    return 1
  }
  try {
    return (await command.run({ values: parsed.values as CommandInput['values'], positionals: parsed.positionals, cwd, verbose })) ?? 0
  } catch (error) {
    if (error instanceof CommandError) {
      console.error(error.message)
      return error.exitCode
    }
    // One line, whatever the error's message holds; the stack only when asked for.
    const message = (error instanceof Error ? error.message : String(error)).split('\n')[0]
    if (verbose && error instanceof Error) console.error(`fw ${name} failed: ${error.stack}`)
    else console.error(`fw ${name} failed: ${message} (run with --verbose for the stack)`)
    return 1
  }
}

process.exit(await main(process.argv.slice(2)))
