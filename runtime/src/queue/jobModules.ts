import { existsSync, readdirSync } from 'node:fs'

const MODULE = /(?<!\.d|\.test|\.spec)\.(ts|mts|js|mjs)$/

/**
 * The modules under `folder` that may hold jobs or mail classes (App/Jobs, App/Mail, or their build), relative to it
 * and sorted; none when it does not exist. Declarations and tests are left out.
 *
 * @example
 * ```ts
 * jobModules(join(root, 'App/Jobs')) // ['SendWelcomeEmail.ts', 'reports/MonthlyReport.ts']
 * ```
 */
export function jobModules(folder: string): string[] {
  if (!existsSync(folder)) return []
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((file) => MODULE.test(file))
    .sort()
}
