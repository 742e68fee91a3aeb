import { createRequire } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { OpenAPI3 } from 'openapi-typescript'
import { readGeneratedFile, replaceGeneratedFile } from '../cli/generate/generatedFile.js'

/** Where `fw types` writes the types of the routes' document, in the application's folder. */
export const API_TYPES_FILE = '.fw/api.d.ts'

const HEADER = [
  '// Written by fw types from the OpenAPI document of routes/web.ts (GET /openapi.json): do not edit, run fw types.',
  "// import type { paths } from '../.fw/api.js' for fw-runtime/client's createClient<paths>().",
  '',
].join('\n')

type OpenApiTypeScript = typeof import('openapi-typescript')

/**
 * openapi-typescript from the application's own dependencies (a devDependency of the starters), else from fw-runtime's
 * folder (its own checkout, in development): fw-runtime does not depend on it, and only `fw types` loads it.
 */
async function loadOpenApiTypeScript(cwd: string): Promise<OpenApiTypeScript> {
  for (const from of [join(cwd, 'package.json'), import.meta.url]) {
    let path: string
    try {
      path = createRequire(from).resolve('openapi-typescript')
    } catch {
      continue
    }
    const loaded = (await import(pathToFileURL(path).href)) as OpenApiTypeScript | { default: OpenApiTypeScript }
    // require.resolve finds its CommonJS build, whose module.exports arrives as the default export.
    return typeof loaded.default === 'function' ? (loaded as OpenApiTypeScript) : loaded.default
  }
  throw new Error('openapi-typescript is not installed: npm install --save-dev openapi-typescript@^7.13.0')
}

/**
 * The TypeScript of an OpenAPI document, `paths`, `operations` and `components` as openapi-typescript writes them, under
 * a header that says where it comes from.
 *
 * @example
 * ```ts
 * const text = await renderApiTypes(openApiDocument(routes, packageInfo(cwd)), cwd)
 * ```
 */
export async function renderApiTypes(document: object, cwd: string): Promise<string> {
  const { default: openapiTS, astToString } = await loadOpenApiTypeScript(cwd)
  return HEADER + astToString(await openapiTS(document as OpenAPI3))
}

/** What writing the types did: `written` (new or changed), `unchanged`, or under `check`, `missing` or `stale`. */
export type ApiTypesState = 'written' | 'unchanged' | 'missing' | 'stale'

/**
 * Writes `.fw/api.d.ts` (or `file`) when its content changes, and only then (its modification time stays put for
 * a watcher or a tsc --watch); with `check`, writes nothing and says whether the file is missing or stale.
 *
 * @example
 * ```ts
 * const state = await writeApiTypes(document, cwd)
 * ```
 */
export async function writeApiTypes(document: object, cwd: string, options: { check?: boolean } = {}): Promise<ApiTypesState> {
  const file = join(cwd, API_TYPES_FILE)
  const text = await renderApiTypes(document, cwd)
  const written = readGeneratedFile(file)
  if (written === text) return 'unchanged'
  if (options.check) return written === undefined ? 'missing' : 'stale'
  replaceGeneratedFile(file, text)
  return 'written'
}
