// fw-runtime/console: the app's own commands (App/Console/Commands), listed and run by fw, run by the schedule.
export { BaseCommand, Command, type CommandClass, type CommandInput } from './console/Command.js'
export type { ArgumentDefinition, ArgumentsOf, CommandDefinition, OptionDefinition, OptionsOf } from './console/CommandDefinition.js'
