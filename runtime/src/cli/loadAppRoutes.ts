import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { RouteDefinition } from '../routing/RouteDefinition.js'
import type { Router } from '../routing/Router.js'
import { CommandError } from './Command.js'
import { loadTypeScript } from './loadTypeScript.js'

/** The routes file every command that reads routes loads. */
export const ROUTES = 'routes/web.ts'

/**
 * The application's router as its server sets it up: bootstrap/app.ts `configure(container, router)` (its global
 * middleware, aliases and services), then `routes/web.ts` and the files it imports; for the commands that read
 * routes (`fw route:list`, `fw openapi`). An alias the routes name that nothing registers does not stop the reading.
 *
 * @example
 * ```ts
 * const { router, routes } = await loadAppRoutes(cwd)
 * ```
 */
export async function loadAppRoutes(cwd: string): Promise<{ router: Router; routes: readonly RouteDefinition[] }> {
  const file = join(cwd, ROUTES)
  if (!existsSync(file)) throw new CommandError(`No ${ROUTES} in ${cwd}: run fw from your application's folder`)
  await loadTypeScript()
  const [{ Container, Router, loadEnv }, { configureApp }] = await Promise.all([import('../index.js'), import('../queue/appJobs.js')])
  loadEnv(join(cwd, '.env'))
  const router = new Router(Container.getInstance())
  try {
    await configureApp(cwd, Container.getInstance(), false, router)
    await router.loadRoutesFromFile(file)
  } catch (error) {
    if (!(error instanceof Error && /^Middleware ".*" is not registered/.test(error.message))) throw error
  }
  return { router, routes: router.getRoutes() }
}
