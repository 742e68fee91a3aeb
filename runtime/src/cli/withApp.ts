import { join } from 'node:path'
import type { Container } from '../container/Container.js'

/** What `withApp` hands its work: the app's container, and whether the app runs from its build in dist/. */
export interface BootedApp {
  readonly container: Container
  readonly built: boolean
}

/**
 * Boots the app in this process as a queue worker does, for a command that runs the app's own code (`fw tinker`,
 * an app command): its `.env` read, TypeScript loaded (in production, its build in dist/ instead), its database
 * registered for `db()`, bootstrap/app.ts `configure()` run and its routes loaded (for `Route.url`). The database
 * is closed once `work` has settled.
 *
 * @example
 * ```ts
 * await withApp(cwd, async ({ container }) => container.make(SendDigest).handle())
 * ```
 */
export async function withApp<T>(cwd: string, work: (app: BootedApp) => Promise<T>): Promise<T> {
  const [{ loadEnv }, { isProduction }, { Container }, { createDatabase }, { bootApp }] = await Promise.all([
    import('../config/loadEnv.js'),
    import('../config/environment.js'),
    import('../container/Container.js'),
    import('../database/createDatabase.js'),
    import('../queue/appJobs.js'),
  ])
  loadEnv(join(cwd, '.env'))
  const built = isProduction()
  if (!built) await import('./loadTypeScript.js').then(({ loadTypeScript }) => loadTypeScript())
  const container = Container.getInstance()
  // The app's database: the one of its folder, wherever fw is installed.
  const database = createDatabase(process.env.DATABASE_URL, cwd)
  container.instance('db', database)
  try {
    await bootApp(cwd, container, built)
    return await work({ container, built })
  } finally {
    await database.destroy()
  }
}
