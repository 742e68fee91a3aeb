import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Container } from '../container/Container.js'
import { loadMailClasses } from '../mail/mailClasses.js'
import type { Router } from '../routing/Router.js'
import { loadJobs, type JobRegistry } from './jobRegistry.js'

/** Where the app's jobs are: its TypeScript sources, or their build in dist/ (`fw start`, production). */
export function jobsFolder(root: string, built: boolean): string {
  return join(root, built ? 'dist/App/Jobs' : 'App/Jobs')
}

/** Where the app's mail classes are: each one sent queues Fw's job SendQueuedMail, for a worker to run. */
export function mailFolder(root: string, built: boolean): string {
  return join(root, built ? 'dist/App/Mail' : 'App/Mail')
}

/** Where the app's routes are: routes/web.ts, or its build in dist/. */
export function routesFile(root: string, built: boolean): string {
  return join(root, built ? 'dist/routes/web.js' : 'routes/web.ts')
}

/**
 * Sets the app up as its server does: bootstrap/app.ts `configure(container, router)`, which binds the services its
 * jobs and scheduled tasks are built with, and on `router` (a fresh one if none is given) its middleware and aliases.
 * `built` reads dist/ (the build of `npm run build`); otherwise the TypeScript sources, which need a TypeScript loader
 * in the process.
 */
export async function configureApp(root: string, container: Container, built: boolean, router?: Router): Promise<void> {
  const bootstrap = join(root, built ? 'dist/bootstrap/app.js' : 'bootstrap/app.ts')
  if (!existsSync(bootstrap)) return
  const { configure } = (await import(pathToFileURL(bootstrap).href)) as { configure?: (container: Container, router: Router) => void }
  if (!configure) return
  configure(container, router ?? new (await import('../routing/Router.js')).Router(container))
}

/**
 * Boots the app in a process that serves no request (a queue worker, a scheduler) as its web process does:
 * `configureApp`, then its routes on a router of this process, so that a job, a mail or a scheduled task builds its
 * links with `Route.url`, `Route.absoluteUrl` and `Route.signedUrl` exactly as a request handler does.
 */
export async function bootApp(root: string, container: Container, built: boolean): Promise<void> {
  const router = new (await import('../routing/Router.js')).Router(container)
  await configureApp(root, container, built, router)
  const routes = routesFile(root, built)
  if (existsSync(routes)) await router.loadRoutesFromFile(routes)
}

/**
 * Boots the app (`bootApp`), then loads its job classes, from dist/ when `built`, and its mail classes, which the job
 * SendQueuedMail asks `shouldSend()`.
 */
export async function bootAppJobs(root: string, container: Container, built: boolean): Promise<JobRegistry> {
  await bootApp(root, container, built)
  await loadMailClasses(mailFolder(root, built))
  return loadJobs(jobsFolder(root, built))
}
