import type { ParseArgsConfig } from 'node:util'
import type { CommandInput } from './Command.js'
import type { ArgumentDefinition, CommandDefinition, OptionDefinition } from './CommandDefinition.js'

type ParseArgsOptions = NonNullable<ParseArgsConfig['options']>

/**
 * The definition's options as `node:util` `parseArgs` takes them: a number is read as a string, then checked by
 * `commandInput`.
 *
 * @example
 * ```ts
 * parseArgsOptions({ name: 'digest:send', description: '…', options: { limit: { type: 'number', short: 'l' } } })
 * // { limit: { type: 'string', short: 'l' } }
 * ```
 */
export function parseArgsOptions(definition: CommandDefinition): ParseArgsOptions {
  const options: ParseArgsOptions = {}
  for (const [name, option] of Object.entries(definition.options ?? {})) {
    options[name] = {
      type: option.type === 'boolean' ? 'boolean' : 'string',
      ...(option.short ? { short: option.short } : {}),
      ...(option.multiple ? { multiple: true } : {}),
    }
  }
  return options
}

/**
 * The typed input of a run from what `parseArgs` read: positionals named in the definition's order, numbers
 * checked, defaults filled in, flags false when absent. Throws a one-line message for the user when an argument
 * is missing, one too many, or a number is not one.
 *
 * @example
 * ```ts
 * commandInput(SendDigest.definition, { queue: true }, ['42'])
 * // { arguments: { user: 42 }, options: { queue: true } }
 * ```
 */
export function commandInput(definition: CommandDefinition, values: Record<string, unknown>, positionals: readonly string[]): CommandInput {
  const args: Record<string, unknown> = {}
  const entries = Object.entries(definition.arguments ?? {})
  entries.forEach(([name, argument], index) => {
    if (argument.variadic) {
      args[name] = positionals.slice(index).map((value) => scalar(argument, value, `<${name}>`))
      return
    }
    const value = positionals[index]
    if (value === undefined) {
      if (!isOptional(argument)) throw new Error(`missing the argument <${name}>${argument.description ? ` (${argument.description})` : ''}`)
      args[name] = argument.default
      return
    }
    args[name] = scalar(argument, value, `<${name}>`)
  })
  if (!entries.some(([, argument]) => argument.variadic) && positionals.length > entries.length) {
    throw new Error(`unexpected argument ${JSON.stringify(positionals[entries.length])}: it takes ${entries.length === 0 ? 'none' : `at most ${entries.length}`}`)
  }
  const options: Record<string, unknown> = {}
  for (const [name, option] of Object.entries(definition.options ?? {})) {
    const value = values[name]
    if (option.type === 'boolean') options[name] = value === true
    else if (Array.isArray(value)) options[name] = value.map((item) => scalar(option, String(item), `--${name}`))
    else if (typeof value === 'string') options[name] = scalar(option, value, `--${name}`)
    else options[name] = option.multiple ? [] : option.default
  }
  return { arguments: args, options } as CommandInput
}

function isOptional(argument: ArgumentDefinition): boolean {
  return argument.optional === true || argument.default !== undefined || argument.variadic === true
}

function scalar(definition: ArgumentDefinition | OptionDefinition, value: string, what: string): string | number {
  if (definition.type !== 'number') return value
  const number = Number(value)
  if (value.trim() === '' || !Number.isFinite(number)) throw new Error(`${what} must be a number, got ${JSON.stringify(value)}`)
  return number
}
