import type { Command } from '../../runtime/src/cli/Command.js'
import { CommandError } from '../../runtime/src/cli/Command.js'
import { classPath, kebabCase, snakeCase } from '../../runtime/src/cli/generate/names.js'
import { stub } from '../../runtime/src/cli/generate/stub.js'
import { writeFiles } from '../../runtime/src/cli/generate/writeFiles.js'

/** What `fw` accepts as a command's name: lowercase words joined by `:` or `-` (the rule of fw-runtime/console). */
const COMMAND_NAME = /^[a-z][a-z0-9]*(?:[:-][a-z0-9]+)*$/

/** `fw make:command SendDigest [--command=digest:send]`: `App/Console/Commands/SendDigest.ts`, an app command. */
export const makeCommand: Command = {
  name: 'make:command',
  summary: 'Create a command of the app in App/Console/Commands, run by fw and by the schedule',
  usage: 'make:command <Name> [--command=<name>] [--force]',
  details: [
    'Writes App/Console/Commands/<Name>.ts: a class with the name fw runs it by, a description, typed arguments and',
    'options, and handle(). fw lists it under the app\'s name (fw --help), prints its arguments (fw <name> --help)',
    'and runs it with the app booted; schedule.command(\'<name> …\') in bootstrap/schedule.ts runs it at its times.',
    '--command=<name>  what to type after fw (default app:<name-in-kebab-case>, as Laravel\'s make:command)',
    '--force           overwrite the file if it exists',
  ],
  arguments: 1,
  options: { command: { type: 'string', short: 'c' }, force: { type: 'boolean', short: 'f' } },
  async run({ positionals, values, cwd }) {
    const name = positionals[0]!
    const { className } = classPath(name, 'command', 'SendDigest')
    const command = typeof values.command === 'string' ? values.command : `app:${kebabCase(className)}`
    if (!COMMAND_NAME.test(command)) {
      throw new CommandError(`"${command}" is not a valid command name: use lowercase words joined by ":" or "-", such as digest:send`)
    }
    const sentence = snakeCase(className).replace(/_/g, ' ')
    const words = sentence.charAt(0).toUpperCase() + sentence.slice(1)
    const file = { path: `App/Console/Commands/${name}.ts`, content: stub('make-command', 'command.stub', { className, command, words }) }
    writeFiles(cwd, [file], values.force === true)
    console.log(`Created ${file.path}`)
    console.log(`Run it with: npx fw ${command}`)
  },
}
