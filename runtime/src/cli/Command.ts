import type { ParseArgsConfig } from 'node:util'

export type OptionsConfig = NonNullable<ParseArgsConfig['options']>

/** What a command receives: its parsed options and positionals, and the application's folder. */
export interface CommandInput {
  values: Record<string, string | boolean | undefined>
  positionals: string[]
  /** The application's root folder (where its package.json is). */
  cwd: string
  /** `--verbose` was given: print stacks with errors. */
  verbose?: boolean
}

/**
 * One `fw` command. Its module must be cheap to import: `fw --help` loads every command, so a command
 * that needs kysely or a TypeScript loader imports them inside `run`.
 */
export interface Command {
  name: string
  /** One line for `fw --help`. */
  summary: string
  /** `make:controller <Name> [--resource] [--force]` */
  usage: string
  /** Lines under the usage in `fw <command> --help`. */
  details?: string[]
  options?: OptionsConfig
  /** How many positionals the command takes (default 0), or a range (an app command's optional arguments). */
  arguments?: number | { readonly min: number; readonly max: number }
  /** Resolves to the exit code. */
  run(input: CommandInput): Promise<number | void>
}

/** A failure to print as one line, with a non-zero exit and no stack. */
export class CommandError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message)
    this.name = 'CommandError'
  }
}
