import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseEnv } from 'node:util'
import { appRoot } from './appRoot.js'

/**
 * Reads a `.env` file into `process.env`. Variables already set in the environment win, so
 * `PORT=9000 npm start` overrides the file. A missing file is fine: production often has none.
 * By default the `.env` of the application's root (see `appRoot`), whatever the working directory.
 *
 * @example
 * ```ts
 * loadEnv() // .env in the application's root
 * ```
 */
export function loadEnv(path: string | URL = join(appRoot(), '.env')): Record<string, string> {
  const values = readEnvFile(path)
  for (const [key, value] of Object.entries(values)) {
    if (process.env[key] === undefined) process.env[key] = value
  }
  return values
}

/**
 * The variables of a `.env` file, without touching `process.env`; none when there is no such file.
 *
 * @example
 * ```ts
 * const { PORT = '8000' } = { ...readEnvFile('.env'), ...process.env }
 * ```
 */
export function readEnvFile(path: string | URL): Record<string, string> {
  const file = path instanceof URL ? fileURLToPath(path) : resolve(path)
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {}
    throw error
  }
  return parseEnv(text) as Record<string, string>
}
