import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { jobModules } from '../../queue/jobModules.js'

/**
 * The classes every module of the app's App/Models exports (from dist/ when `built`), by the name they are exported
 * under: what `fw tinker` puts in scope, so that `await User.find(1)` needs no import.
 *
 * @example
 * ```ts
 * await appModels('/srv/app', false) // { User: [class User], Post: [class Post] }
 * ```
 */
export async function appModels(root: string, built: boolean): Promise<Record<string, unknown>> {
  const folder = join(root, built ? 'dist/App/Models' : 'App/Models')
  const models: Record<string, unknown> = {}
  for (const file of jobModules(folder)) {
    const exports = (await import(pathToFileURL(join(folder, file)).href)) as Record<string, unknown>
    for (const [name, value] of Object.entries(exports)) {
      if (typeof value === 'function' && /^class\b/.test(Function.prototype.toString.call(value)) && !(name in models)) models[name] = value
    }
  }
  return models
}
