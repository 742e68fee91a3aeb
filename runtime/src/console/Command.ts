import { checkDefinition, type ArgumentsOf, type CommandDefinition, type OptionsOf } from './CommandDefinition.js'

/** What marks an app command class for the `fw` that discovers it, whichever copy of fw-runtime it came from. */
export const COMMAND_BRAND = Symbol.for('fw.command')

/** The parsed input of one run, given to the command by `fw` before `handle()`. */
export interface CommandInput<D extends CommandDefinition = CommandDefinition> {
  readonly arguments: ArgumentsOf<D>
  readonly options: OptionsOf<D>
}

/**
 * Where a command holds its input: a symbol of the global registry, as the brand is, so that the `fw` that runs the
 * command and the fw-runtime the app imports agree on it even when they are two copies.
 */
const INPUT = Symbol.for('fw.command.input')

/**
 * Hands a command its input; `fw` calls it between building the command (from the container) and `handle()`.
 * @internal
 */
export function giveInput(command: BaseCommand<any>, input: CommandInput): void {
  Object.defineProperty(command, INPUT, { value: input })
}

/**
 * What every app command is: typed `arguments` and `options`, `handle()`, and a few helpers to write to the
 * terminal. Extend it through `Command({ … })`, which declares the name, the description and the input.
 */
export abstract class BaseCommand<D extends CommandDefinition = CommandDefinition> {
  /** The arguments given on the command line, typed from the definition (`fw digest:send 42` → `{ user: 42 }`). */
  get arguments(): ArgumentsOf<D> {
    return this.#input().arguments as ArgumentsOf<D>
  }

  /** The options given on the command line, typed from the definition (`--queue` → `{ queue: true }`). */
  get options(): OptionsOf<D> {
    return this.#input().options as OptionsOf<D>
  }

  /**
   * Does the work, once the app is booted (`db()`, the models and the container's services are ready). Resolves to
   * the exit code: nothing is 0; a throw prints its message and exits 1.
   */
  abstract handle(): Promise<number | void> | number | void

  /** Writes a line to standard output. */
  info(message: string): void {
    process.stdout.write(`${message}\n`)
  }

  /** Writes a line to standard error. */
  error(message: string): void {
    process.stderr.write(`${message}\n`)
  }

  /** Writes rows as an aligned table under a header line, as `fw route:list` does. */
  table(header: readonly string[], rows: readonly (readonly unknown[])[]): void {
    const cells = rows.map((row) => row.map((cell) => (cell === null || cell === undefined ? '' : String(cell))))
    const widths = header.map((title, column) => Math.max(title.length, ...cells.map((row) => (row[column] ?? '').length)))
    const line = (row: readonly string[]) => row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ').trimEnd()
    this.info([line(header), line(widths.map((width) => '-'.repeat(width))), ...cells.map(line)].join('\n'))
  }

  #input(): CommandInput {
    const input = (this as unknown as Record<symbol, CommandInput | undefined>)[INPUT]
    if (!input) throw new Error(`${this.constructor.name}: its arguments and options are given by fw when it runs, not in its constructor`)
    return input
  }
}

/** The class `Command({ … })` returns, for an app command to extend. */
export type CommandClass<D extends CommandDefinition> = (abstract new (...services: any[]) => BaseCommand<D>) & {
  /** What the command declared: fw reads it for `--help` and to parse the command line. */
  readonly definition: D
}

/**
 * An app command, as Laravel's Artisan commands: a class in `App/Console/Commands` that `fw` lists under the app's
 * name and runs with the app booted (`fw digest:send 42 --queue`), and that `schedule.command('digest:send 42')`
 * runs at its times. Its arguments and options are declared once and typed in `handle()`; a missing argument, an
 * unknown option or a number that is not one is refused with the usage before the app boots. Its constructor
 * receives the container's services, as a controller's does.
 *
 * @example
 * ```ts
 * import { Command } from 'fw-runtime/console'
 *
 * export class SendDigest extends Command({
 *   name: 'digest:send',
 *   description: 'Send the digest of the day to a user',
 *   arguments: { user: { type: 'number', description: 'The id of the user' } },
 *   options: { queue: { type: 'boolean', description: 'Queue the mail instead of sending it now' } },
 * }) {
 *   async handle(): Promise<void> {
 *     const { user } = this.arguments // number
 *     if (this.options.queue) this.info(`Queued the digest of user ${user}`)
 *   }
 * }
 * ```
 */
export function Command<const D extends CommandDefinition>(definition: D): CommandClass<D> {
  checkDefinition(definition)
  abstract class DefinedCommand extends BaseCommand<D> {
    static readonly definition = definition
    static readonly [COMMAND_BRAND] = true
  }
  return DefinedCommand
}

/** An app command class that can be built: `Command({ … })` extended with a `handle()`. */
export type RunnableCommandClass = (new (...services: any[]) => BaseCommand) & { readonly definition: CommandDefinition }

/** A class that `Command({ … })` made and that has its own `handle()`: one `fw` can run. */
export function isCommandClass(value: unknown): value is RunnableCommandClass {
  return typeof value === 'function' && (value as unknown as Record<symbol, unknown>)[COMMAND_BRAND] === true && typeof value.prototype?.handle === 'function'
}
