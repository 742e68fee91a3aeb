#!/usr/bin/env node
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { parseArgs } from 'node:util'
import { CommandError, type Command, type CommandInput } from './Command.js'
import { commands } from './commands.js'
import { suggest } from './suggest.js'
import { unknownOption } from './unknownOption.js'

const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version

function help(): string {
  const width = Math.max(...commands.map((command) => command.name.length))
  return [
    `Fw ${version}`,
    '',
    'Usage: fw <command> [arguments] [options]',
    '',
    'Commands:',
    ...commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
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

async function main(args: string[]): Promise<number> {
  // --verbose works with every command, so it is taken out before the command's own options are parsed.
  const verbose = args.includes('--verbose')
  const argv = args.filter((arg) => arg !== '--verbose')
  const [name, ...rest] = argv
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    console.log(help())
    return 0
  }
  if (name === '--version' || name === '-v') {
    console.log(version)
    return 0
  }
  const command = commands.find((candidate) => candidate.name === name)
  if (!command) {
    const nearest = suggest(name, commands.map((candidate) => candidate.name))
    console.error(`Unknown command "${name}".${nearest ? ` Did you mean "fw ${nearest}"?` : ''} Run fw --help for the list.`)
    return 1
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
  const expected = command.arguments ?? 0
  if (parsed.positionals.length !== expected) {
    const problem = parsed.positionals.length < expected ? 'is missing an argument' : 'takes no more arguments'
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
