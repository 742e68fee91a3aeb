import { readFileSync } from 'node:fs'

/**
 * Every generator's stubs, `<command>/stubs/<file>`, in one known place: the fw-runtime package's
 * `dist/generators/`, where its build copies them from the repository's `generators/` (runtime/tsup.config.ts).
 * Found from the package itself, so it holds wherever the bundler puts this code and wherever npm installs
 * the package.
 */
const GENERATORS = new URL('dist/generators/', import.meta.resolve('fw-runtime/package.json'))

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
  const text = readFileSync(new URL(`${generator}/stubs/${file}`, GENERATORS), 'utf8')
  return text.replace(/\{\{ ([a-zA-Z]+) \}\}/g, (_, key: string) => {
    const value = values[key]
    if (value === undefined) throw new Error(`Stub ${generator}/${file} needs a value for "${key}"`)
    return value
  })
}
