import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Container } from '../container/Container.js'
import { loadJobs, type JobRegistry } from './jobRegistry.js'

/** Where the app's jobs are: its TypeScript sources, or their build in dist/ (`fw start`, production). */
export function jobsFolder(root: string, built: boolean): string {
  return join(root, built ? 'dist/App/Jobs' : 'App/Jobs')
}

/** Where the app's mail classes are: each one sent queues Fw's job SendQueuedMail, for a worker to run. */
export function mailFolder(root: string, built: boolean): string {
  return join(root, built ? 'dist/App/Mail' : 'App/Mail')
}

/**
 * Sets the app up as its server does: bootstrap/app.ts `configure(container, router)`, which binds the services its
 * jobs and scheduled tasks are built with. `built` reads dist/ (the build of `npm run build`); otherwise the
 * TypeScript sources, which need a TypeScript loader in the process.
 */
export async function configureApp(root: string, container: Container, built: boolean): Promise<void> {
  const bootstrap = join(root, built ? 'dist/bootstrap/app.js' : 'bootstrap/app.ts')
  if (!existsSync(bootstrap)) return
  const [{ configure }, { Router }] = await Promise.all([
    import(pathToFileURL(bootstrap).href) as Promise<{ configure?: (container: Container, router: unknown) => void }>,
    import('../routing/Router.js'),
  ])
  configure?.(container, new Router(container))
}

/** Sets the app up (`configureApp`), then loads its job classes, from dist/ when `built`. */
export async function bootAppJobs(root: string, container: Container, built: boolean): Promise<JobRegistry> {
  await configureApp(root, container, built)
  return loadJobs(jobsFolder(root, built))
}
