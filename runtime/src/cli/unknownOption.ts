import { parseArgs } from 'node:util'
import type { OptionsConfig } from './Command.js'
import { suggest } from './suggest.js'

/** Options every command takes besides its own; fw takes them out before the command's options are parsed. */
const EVERY_COMMAND = ['verbose', 'help']

/**
 * The first option in `args` that a command does not take, as it was typed, and the nearest long option the
 * command does take. A short flag gets no suggestion: every other letter is one edit away from it.
 *
 * @example
 * ```ts
 * unknownOption(['Post', '--migrtion'], { migration: { type: 'boolean', short: 'm' } })
 * // { option: '--migrtion', nearest: '--migration' }
 * ```
 */
export function unknownOption(args: string[], options: OptionsConfig): { option: string; nearest?: string } | undefined {
  const known = [...Object.keys(options), ...EVERY_COMMAND]
  const { tokens } = parseArgs({ args, options, allowPositionals: true, strict: false, tokens: true })
  for (const token of tokens) {
    if (token.kind !== 'option' || known.includes(token.name) || token.rawName === '-h') continue
    if (!token.rawName.startsWith('--')) return { option: token.rawName }
    const nearest = suggest(token.name, known)
    return { option: token.rawName, ...(nearest ? { nearest: `--${nearest}` } : {}) }
  }
  return undefined
}
