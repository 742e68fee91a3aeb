import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { OpenApiInfo } from './openApiDocument.js'

/**
 * The document's `info` from the application's package.json: `name` as the title, `version` and `description`.
 * A folder without a readable package.json gives `Fw application` at `0.0.0`; this function _never_ throws.
 *
 * @example
 * ```ts
 * packageInfo(appRoot()) // { title: 'my-app', version: '0.1.0' }
 * ```
 */
export function packageInfo(folder: string): OpenApiInfo {
  let manifest: { name?: unknown; version?: unknown; description?: unknown } = {}
  try {
    manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'))
  } catch {
    // No package.json, or not JSON: the defaults below.
  }
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined)
  const description = text(manifest.description)
  return {
    title: text(manifest.name) ?? 'Fw application',
    version: text(manifest.version) ?? '0.0.0',
    ...(description ? { description } : {}),
  }
}
