import type { CommandDefinition } from './CommandDefinition.js'

/**
 * The command line a command takes, as `fw --help` prints usages.
 *
 * @example
 * ```ts
 * commandUsage(SendDigest.definition) // 'digest:send <user> [--queue]'
 * ```
 */
export function commandUsage(definition: CommandDefinition): string {
  const args = Object.entries(definition.arguments ?? {}).map(([name, argument]) => {
    const shown = `<${name}>${argument.variadic ? '...' : ''}`
    return argument.optional || argument.default !== undefined || argument.variadic ? `[${shown}]` : shown
  })
  const options = Object.entries(definition.options ?? {}).map(([name, option]) => `[--${name}${option.type === 'boolean' ? '' : `=<${option.type}>`}]`)
  return [definition.name, ...args, ...options].join(' ')
}

/**
 * The lines `fw <command> --help` prints under the usage: each argument and option with its description, type and
 * default.
 */
export function commandDetails(definition: CommandDefinition): string[] {
  const args = Object.entries(definition.arguments ?? {}).map(([name, argument]) => {
    const notes = [argument.type === 'number' ? 'a number' : '', argument.default !== undefined ? `default ${JSON.stringify(argument.default)}` : '', argument.optional ? 'optional' : '']
    return [`<${name}>${argument.variadic ? '...' : ''}`, describe(argument.description, notes)] as const
  })
  const options = Object.entries(definition.options ?? {}).map(([name, option]) => {
    const notes = [option.type === 'number' ? 'a number' : '', option.default !== undefined ? `default ${JSON.stringify(option.default)}` : '', option.multiple ? 'may be repeated' : '']
    const flag = `${option.short ? `-${option.short}, ` : ''}--${name}${option.type === 'boolean' ? '' : `=<${option.type}>`}`
    return [flag, describe(option.description, notes)] as const
  })
  const width = Math.max(0, ...[...args, ...options].map(([left]) => left.length))
  const lines = (rows: readonly (readonly [string, string])[]) => rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`.trimEnd())
  return [...(args.length ? ['Arguments:', ...lines(args)] : []), ...(options.length ? [...(args.length ? [''] : []), 'Options:', ...lines(options)] : [])]
}

function describe(description: string | undefined, notes: string[]): string {
  const kept = notes.filter(Boolean)
  return [description ?? '', kept.length ? `(${kept.join(', ')})` : ''].filter(Boolean).join(' ')
}
