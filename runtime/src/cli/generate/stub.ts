import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/**
 * The folder that holds `generators/<command>/stubs/`: `dist/generators` in the published package,
 * the repository's `generators` when running from source.
 */
const root = [new URL('../generators/', import.meta.url), new URL('./generators/', import.meta.url), new URL('../../../../generators/', import.meta.url)]
  .map((url) => fileURLToPath(url))
  .find((path) => existsSync(path))

/**
 * A generator's stub with its `{{ key }}` placeholders filled in. Every placeholder must have a value,
 * so a stub can never ship with a hole in it.
 *
 * @example
 * ```ts
 * stub('make-controller', 'controller.stub', { name: 'UserController' })
 * ```
 */
export function stub(generator: string, file: string, values: Record<string, string>): string {
  if (!root) throw new Error('The generators folder is missing from this fw-runtime installation')
  const text = readFileSync(`${root}/${generator}/stubs/${file}`, 'utf8')
  return text.replace(/\{\{ ([a-zA-Z]+) \}\}/g, (_, key: string) => {
    const value = values[key]
    if (value === undefined) throw new Error(`Stub ${generator}/${file} needs a value for "${key}"`)
    return value
  })
}
