import { existsSync } from 'node:fs'
import { join } from 'node:path'

/** Settings an application's code expects; each unset one is reported once at startup. */
const EXPECTED = ['APP_KEY', 'API_KEY']

/**
 * Warns on stderr, once per process that calls it, about a missing `.env` in the application's root and
 * about expected settings that are unset or empty in `env`. It never stops the start: production often sets
 * everything in the environment and has no `.env`.
 *
 * @example
 * ```ts
 * reportMissingSettings(appRoot())
 * ```
 */
export function reportMissingSettings(root: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const problems: string[] = []
  if (!existsSync(join(root, '.env'))) problems.push(`no .env in ${root}: settings come from the environment only`)
  const unset = EXPECTED.filter((key) => !env[key])
  if (unset.length > 0) problems.push(`${unset.join(' and ')} ${unset.length === 1 ? 'is' : 'are'} not set (see .env.example)`)
  // Sessions and sign-in need APP_KEY: after a clone, `.env` comes from `.env.example` with an empty one.
  if (unset.includes('APP_KEY')) problems.push('make an APP_KEY with npx fw key:generate')
  for (const problem of problems) console.warn(`[fw] warning: ${problem}`)
  return problems
}
