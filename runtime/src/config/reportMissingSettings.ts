import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { parseAddress } from '../mail/address.js'
import { defaultFrom, mailConfig } from '../mail/mailConfig.js'

/** Settings an application's code expects; each unset one is reported once at startup. */
const EXPECTED = ['APP_KEY', 'API_KEY']

/**
 * Warns on stderr, once per process that calls it, about a missing `.env` in the application's root, about
 * expected settings that are unset or empty in `env`, and, when the build has mail classes (`dist/App/Mail`), about
 * mail settings that would fail every mail (`MAIL_MAILER` unset in production, say). It never stops the start:
 * production often sets everything in the environment and has no `.env`, and a request that queues a mail answers
 * the same without them (the worker fails the mail's job, saying what to set).
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
  const mail = hasMailClasses(root) ? mailSettingsProblem(env) : undefined
  if (mail) problems.push(`the app's mail cannot be sent (dist/App/Mail has mail classes): ${mail}`)
  for (const problem of problems) console.warn(`[fw] warning: ${problem}`)
  return problems
}

/** Whether the build has mail classes: its server sends mail, and needs the mail settings. */
function hasMailClasses(root: string): boolean {
  const folder = join(root, 'dist/App/Mail')
  return existsSync(folder) && readdirSync(folder, { recursive: true, encoding: 'utf8' }).some((file) => /\.m?js$/.test(file))
}

/** What `deliver` would say of the mail settings in `env`, or undefined when they are fine. */
function mailSettingsProblem(env: NodeJS.ProcessEnv): string | undefined {
  try {
    parseAddress('MAIL_FROM', defaultFrom(mailConfig(env), env))
    return undefined
  } catch (error) {
    return (error as Error).message
  }
}
