import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Container } from '../container/Container.js'
import { loadJobs, type JobRegistry } from './jobRegistry.js'

/** Where the app's jobs are: its TypeScript sources, or their build in dist/ (`fw start`, production). */
export function jobsFolder(root: string, built: boolean): string {
  return join(root, built ? 'dist/App/Jobs' : 'App/Jobs')
}

/**
 * Sets the app up as its server does (bootstrap/app.ts `configure(container, router)`: the services its jobs are
 * built with), then loads its job classes. `built` reads dist/ (the build of `npm run build`); otherwise the
 * TypeScript sources, which need a TypeScript loader in the process.
 */
export async function bootAppJobs(root: string, container: Container, built: boolean): Promise<JobRegistry> {
  const bootstrap = join(root, built ? 'dist/bootstrap/app.js' : 'bootstrap/app.ts')
  if (existsSync(bootstrap)) {
    const [{ configure }, { Router }] = await Promise.all([
      import(pathToFileURL(bootstrap).href) as Promise<{ configure?: (container: Container, router: unknown) => void }>,
      import('../routing/Router.js'),
    ])
    configure?.(container, new Router(container))
  }
  return loadJobs(jobsFolder(root, built))
}
