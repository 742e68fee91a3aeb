import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { RouteDefinition } from '../routing/RouteDefinition.js'
import { CommandError } from './Command.js'
import { loadTypeScript } from './loadTypeScript.js'

/** The routes file every command that reads routes loads. */
export const ROUTES = 'routes/web.ts'

/**
 * The application's routes, loaded from `routes/web.ts` (and the files it imports) into a fresh, compiled router,
 * for the commands that read them (`fw route:list`, `fw openapi`). Middleware aliases are registered where the
 * application boots, not here: an unknown one does not stop the reading.
 *
 * @example
 * ```ts
 * const routes = await loadAppRoutes(cwd)
 * ```
 */
export async function loadAppRoutes(cwd: string): Promise<readonly RouteDefinition[]> {
  const file = join(cwd, ROUTES)
  if (!existsSync(file)) throw new CommandError(`No ${ROUTES} in ${cwd}: run fw from your application's folder`)
  await loadTypeScript()
  const { Container, Router, loadEnv } = await import('../index.js')
  loadEnv(join(cwd, '.env'))
  const router = new Router(Container.getInstance())
  try {
    await router.loadRoutesFromFile(file)
  } catch (error) {
    if (!(error instanceof Error && /^Middleware ".*" is not registered/.test(error.message))) throw error
  }
  return router.getRoutes()
}
