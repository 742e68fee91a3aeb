import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Container } from '../container/Container.js'
import { bootApp } from '../queue/appJobs.js'
import { schedule } from './schedule.js'
import type { ScheduledTask } from './ScheduledTask.js'

/** Where the app declares its schedule: bootstrap/schedule.ts, or its build in dist/ (`fw start`, production). */
export function scheduleFile(root: string, built: boolean): string {
  return join(root, built ? 'dist/bootstrap/schedule.js' : 'bootstrap/schedule.ts')
}

/**
 * Boots the app as its server does (bootstrap/app.ts, then its routes, for the tasks' links), then imports its schedule file, which declares the tasks
 * on `schedule`; undefined when the app has no schedule file. Throws when two tasks share a key.
 */
export async function loadAppSchedule(root: string, container: Container, built: boolean): Promise<readonly ScheduledTask[] | undefined> {
  const file = scheduleFile(root, built)
  if (!existsSync(file)) return undefined
  await bootApp(root, container, built)
  schedule.clear()
  await import(pathToFileURL(file).href)
  return schedule.tasks()
}
