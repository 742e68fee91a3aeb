/** One positional argument of an app command, in the order the definition lists them. */
export interface ArgumentDefinition {
  /** What `fw <command> --help` says of it. */
  readonly description?: string
  /** `number` refuses what is not a number, before the app boots. Default `string`. */
  readonly type?: 'string' | 'number'
  /** May be left out: then `undefined`, or its `default`. Optional arguments come after the required ones. */
  readonly optional?: boolean
  /** Its value when left out (makes it optional). */
  readonly default?: string | number
  /** Takes every remaining argument, as an array (the last argument only). */
  readonly variadic?: boolean
}

/** One `--option` of an app command. */
export interface OptionDefinition {
  /** `boolean` is a flag (`--queue`, false when absent); `string` and `number` take a value (`--limit=10`). */
  readonly type: 'boolean' | 'string' | 'number'
  /** What `fw <command> --help` says of it. */
  readonly description?: string
  /** A one-letter alias: `-q`. */
  readonly short?: string
  /** Its value when not given (a `string` or `number` option). */
  readonly default?: string | number
  /** May be given more than once; its value is then an array (`--tag=a --tag=b`). */
  readonly multiple?: boolean
}

/** What an app command declares: its name, what it does, and its arguments and options, typed for `handle()`. */
export interface CommandDefinition {
  /** What to type after `fw`: `digest:send`. Lowercase words, `:` or `-` between them. */
  readonly name: string
  /** One line, for `fw --help` and `fw <name> --help`. */
  readonly description: string
  readonly arguments?: Readonly<Record<string, ArgumentDefinition>>
  readonly options?: Readonly<Record<string, OptionDefinition>>
}

type Scalar<T> = T extends { readonly type: 'number' } ? number : string

type ArgumentValue<A> = A extends { readonly variadic: true }
  ? Scalar<A>[]
  : A extends { readonly default: string | number }
    ? Scalar<A>
    : A extends { readonly optional: true }
      ? Scalar<A> | undefined
      : Scalar<A>

type OptionValue<O> = O extends { readonly type: 'boolean' }
  ? boolean
  : O extends { readonly multiple: true }
    ? Scalar<O>[]
    : O extends { readonly default: string | number }
      ? Scalar<O>
      : Scalar<O> | undefined

/** The arguments `handle()` reads from `this.arguments`, typed from the definition. */
export type ArgumentsOf<D extends CommandDefinition> = D['arguments'] extends Readonly<Record<string, ArgumentDefinition>>
  ? { readonly [K in keyof D['arguments']]: ArgumentValue<D['arguments'][K]> }
  : Record<string, never>

/** The options `handle()` reads from `this.options`, typed from the definition. */
export type OptionsOf<D extends CommandDefinition> = D['options'] extends Readonly<Record<string, OptionDefinition>>
  ? { readonly [K in keyof D['options']]: OptionValue<D['options'][K]> }
  : Record<string, never>

/** `digest:send`, `users:prune-old`, `inspire` */
const NAME = /^[a-z][a-z0-9]*(?:[:-][a-z0-9]+)*$/
const ARGUMENT = /^[a-zA-Z][a-zA-Z0-9_]*$/
const OPTION = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/
/** Options every command takes, that fw reads itself. */
const RESERVED_OPTIONS = ['help', 'verbose']

/**
 * Throws when a definition cannot be read unambiguously: a bad name, an optional argument before a required one,
 * a variadic one that is not last, an option fw keeps for itself. Said when the class is declared, naming it.
 */
export function checkDefinition(definition: CommandDefinition): void {
  const fail = (problem: string) => {
    throw new Error(`Command ${JSON.stringify(definition?.name)}: ${problem}`)
  }
  if (typeof definition?.name !== 'string' || !NAME.test(definition.name)) fail('the name must be lowercase words joined by ":" or "-", such as digest:send')
  if (typeof definition.description !== 'string' || definition.description.trim() === '') fail('it needs a description, one line for fw --help')
  let optionalSeen: string | undefined
  const argumentEntries = Object.entries(definition.arguments ?? {})
  argumentEntries.forEach(([name, argument], index) => {
    if (!ARGUMENT.test(name)) fail(`the argument name ${JSON.stringify(name)} must be an identifier`)
    if (argument.variadic && index !== argumentEntries.length - 1) fail(`the variadic argument <${name}> must be the last one`)
    const optional = argument.optional === true || argument.default !== undefined || argument.variadic === true
    if (optional) optionalSeen ??= name
    else if (optionalSeen) fail(`the required argument <${name}> comes after the optional <${optionalSeen}>`)
    if (argument.type === 'number' && argument.default !== undefined && typeof argument.default !== 'number') fail(`the default of <${name}> must be a number`)
  })
  const shorts = new Set<string>()
  for (const [name, option] of Object.entries(definition.options ?? {})) {
    if (!OPTION.test(name)) fail(`the option name ${JSON.stringify(name)} must be lowercase words joined by "-"`)
    if (RESERVED_OPTIONS.includes(name)) fail(`--${name} is taken by fw for every command`)
    if (!['boolean', 'string', 'number'].includes(option.type)) fail(`the option --${name} needs a type: 'boolean', 'string' or 'number'`)
    if (option.short !== undefined) {
      if (!/^[a-zA-Z]$/.test(option.short) || option.short === 'h') fail(`the short form of --${name} must be one letter other than h`)
      if (shorts.has(option.short)) fail(`two options have the short form -${option.short}`)
      shorts.add(option.short)
    }
    if (option.type === 'boolean' && (option.default !== undefined || option.multiple)) fail(`the flag --${name} takes neither a default nor multiple`)
    if (option.type === 'number' && option.default !== undefined && typeof option.default !== 'number') fail(`the default of --${name} must be a number`)
  }
}
