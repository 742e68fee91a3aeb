import { readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { RunnableCommandClass } from '../console/Command.js'
import { CommandError, type Command } from './Command.js'

/** The app's own commands, found in its App/Console/Commands, under the app's name for `fw --help`. */
export interface AppCommands {
  /** The `name` of the app's package.json, which `fw --help` lists them under. */
  readonly appName: string
  readonly commands: readonly Command[]
}

/** Where the app's commands are: its TypeScript sources, or their build in dist/ (production). */
export function commandsFolder(root: string, built: boolean): string {
  return join(root, built ? 'dist/App/Console/Commands' : 'App/Console/Commands')
}

/**
 * Finds the app's commands: imports every module of App/Console/Commands (in production, of its build) and keeps the
 * classes made by `Command({ … })`, each as an `fw` command. Importing them does not boot the app: that waits until
 * one of them runs, so `fw --help` stays quick. An app without the folder costs nothing, TypeScript is not even loaded.
 * Throws a CommandError when a module cannot be imported or two commands (or one and fw's own) share a name.
 *
 * @example
 * ```ts
 * const { commands } = await loadAppCommands(cwd, ['serve', 'migrate'])
 * ```
 */
export async function loadAppCommands(root: string, reserved: readonly string[]): Promise<AppCommands> {
  const [{ loadEnv }, { isProduction }, { jobModules }] = await Promise.all([
    import('../config/loadEnv.js'),
    import('../config/environment.js'),
    import('../queue/jobModules.js'),
  ])
  loadEnv(join(root, '.env'))
  const built = isProduction()
  const folder = commandsFolder(root, built)
  const modules = jobModules(folder)
  const appName = packageName(root)
  if (modules.length === 0) return { appName, commands: [] }
  if (!built) await import('./loadTypeScript.js').then(({ loadTypeScript }) => loadTypeScript())
  const { isCommandClass } = await import('../console/Command.js')
  const found = new Map<string, string>()
  const commands: Command[] = []
  for (const module of modules) {
    const file = relative(root, join(folder, module))
    let exports: Record<string, unknown>
    try {
      exports = (await import(pathToFileURL(join(folder, module)).href)) as Record<string, unknown>
    } catch (error) {
      throw new CommandError(`fw could not load ${file}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`)
    }
    for (const value of Object.values(exports)) {
      if (!isCommandClass(value)) continue
      const { name } = value.definition
      if (reserved.includes(name)) throw new CommandError(`${file}: the command name "${name}" is one of fw's own; give the command another name`)
      const twin = found.get(name)
      if (twin) throw new CommandError(`Two app commands are named "${name}" (${twin} and ${file}): rename one`)
      found.set(name, file)
      commands.push(await appCommand(value))
    }
  }
  return { appName, commands: commands.sort((a, b) => a.name.localeCompare(b.name)) }
}

/** An app command as `fw` runs its own: usage and help from its definition, and a run that boots the app first. */
async function appCommand(klass: RunnableCommandClass): Promise<Command> {
  const [{ parseArgsOptions, commandInput }, { commandUsage, commandDetails }] = await Promise.all([
    import('../console/commandInput.js'),
    import('../console/commandUsage.js'),
  ])
  const { definition } = klass
  const usage = commandUsage(definition)
  const details = commandDetails(definition)
  return {
    name: definition.name,
    summary: definition.description,
    usage,
    ...(details.length ? { details } : {}),
    options: parseArgsOptions(definition),
    // Counted by commandInput, which names the argument that is missing.
    arguments: { min: 0, max: Infinity },
    async run({ values, positionals, cwd }) {
      let input
      try {
        input = commandInput(definition, values, positionals)
      } catch (error) {
        throw new CommandError(`fw ${definition.name}: ${(error as Error).message} (usage: fw ${usage})`)
      }
      const [{ withApp }, { giveInput }] = await Promise.all([import('./withApp.js'), import('../console/Command.js')])
      return withApp(cwd, async ({ container }) => {
        const command = container.make(klass)
        giveInput(command, input)
        const code = await command.handle()
        return typeof code === 'number' ? code : 0
      })
    },
  }
}

function packageName(root: string): string {
  try {
    const { name } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name?: unknown }
    return typeof name === 'string' && name !== '' ? name : 'app'
  } catch {
    return 'app'
  }
}
