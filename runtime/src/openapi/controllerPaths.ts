import { existsSync, readdirSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Constructor } from '../container/Container.js'
import type { RouteDefinition } from '../routing/RouteDefinition.js'
import type { ControllerPaths } from './operationNames.js'

/** Where an application's controllers live: its sources, and the build `fw start` runs. */
const TREES = [
  { folder: 'App/Controllers', extension: '.ts' },
  { folder: 'dist/App/Controllers', extension: '.js' },
] as const

/**
 * The file under `App/Controllers` of each controller the routes name, without its extension (`Api/UserController`),
 * for the operationIds and tags of the document. A class is looked for in the files named after it, in the sources
 * and then in `dist/`, and taken from the file that exports that very class: the routes imported it already, so the
 * import is the module they loaded (a source file that does not load outside development is passed over). A class in
 * no such file is left out, and is named by its class name.
 *
 * @example
 * ```ts
 * const controllers = await controllerPaths(router.getRoutes(), appRoot())
 * controllers.get(ApiUserController) // 'Api/UserController'
 * ```
 */
export async function controllerPaths(routes: readonly RouteDefinition[], root: string): Promise<ControllerPaths> {
  const classes = new Set(routes.flatMap((route) => (typeof route.handler === 'function' ? [] : [route.handler[0]])))
  const paths = new Map<Constructor<object>, string>()
  if (classes.size === 0) return paths
  const files = TREES.map(({ folder, extension }) => ({ base: join(root, folder), files: filesIn(join(root, folder), extension) }))
  for (const controller of classes) {
    for (const { base, files: tree } of files) {
      const found = await exporting(controller, tree.filter((file) => baseName(file) === controller.name))
      if (found) {
        paths.set(controller, relative(base, found).split(sep).join('/').replace(/\.[jt]s$/, ''))
        break
      }
    }
  }
  return paths
}

/** The file of `candidates` whose module exports `controller` itself. */
async function exporting(controller: Constructor<object>, candidates: readonly string[]): Promise<string | undefined> {
  for (const file of candidates) {
    try {
      const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>
      if (Object.values(module).includes(controller)) return file
    } catch {
      // Not loadable here (a source file outside development): another file, or the build, may be.
    }
  }
  return undefined
}

function filesIn(folder: string, extension: string): string[] {
  if (!existsSync(folder)) return []
  return (readdirSync(folder, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
    .filter((entry) => entry.isFile() && entry.name.endsWith(extension) && !/\.(d|test|spec)\.[jt]s$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort()
}

function baseName(file: string): string {
  return file.slice(file.lastIndexOf(sep) + 1).replace(/\.[jt]s$/, '')
}
