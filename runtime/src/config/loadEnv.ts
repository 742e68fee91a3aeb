import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseEnv } from 'node:util'

/**
 * Reads a `.env` file into `process.env`. Variables already set in the environment win, so
 * `PORT=9000 npm start` overrides the file. A missing file is fine: production often has none.
 *
 * @example
 * ```ts
 * loadEnv() // .env in the current directory
 * ```
 */
export function loadEnv(path: string | URL = '.env'): Record<string, string> {
  const file = path instanceof URL ? fileURLToPath(path) : resolve(path)
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {}
    throw error
  }
  const values = parseEnv(text) as Record<string, string>
  for (const [key, value] of Object.entries(values)) {
    if (process.env[key] === undefined) process.env[key] = value
  }
  return values
}
