import { existsSync } from 'node:fs'
import { isAbsolute, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The routes file to import: the path as given, else the compiled `.js` beside a `.ts` (and the other
 * way round), so that one call serves development and production.
 */
export function resolveRoutesFile(path: string | URL): string {
  const file = path instanceof URL || path.startsWith('file:') ? fileURLToPath(path) : isAbsolute(path) ? path : resolve(path)
  if (existsSync(file)) return file
  const swapped = file.endsWith('.ts') ? `${file.slice(0, -3)}.js` : file.endsWith('.js') ? `${file.slice(0, -3)}.ts` : file
  if (swapped !== file && existsSync(swapped)) return swapped
  throw new Error(`Routes file not found: ${file}`)
}
