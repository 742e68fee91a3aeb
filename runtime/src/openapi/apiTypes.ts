import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { OpenAPI3 } from 'openapi-typescript'
import { readGeneratedFile, replaceGeneratedFile } from '../cli/generate/generatedFile.js'
import type { RouteDefinition } from '../routing/RouteDefinition.js'
import { appOpenApiDocument } from './appOpenApiDocument.js'

/** Where `fw types` writes the types of the routes' document, in the application's folder. */
export const API_TYPES_FILE = '.fw/api.d.ts'

const HEADER = [
  '// Written by fw types (and by fw serve when the routes change) from the OpenAPI document of routes/web.ts: do not edit.',
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
 * a header that says where it comes from. A field with a default is optional or not as the schema's `required` says
 * (`defaultNonNullable: false`): Fw's input schemas leave out a `.default()` field's requirement, and its output
 * schemas keep it, so openapi-typescript need not guess, as it does for a schema in the components.
 *
 * @example
 * ```ts
 * const text = await renderApiTypes(await appOpenApiDocument(routes, cwd), cwd)
 * ```
 */
export async function renderApiTypes(document: object, cwd: string): Promise<string> {
  const { default: openapiTS, astToString } = await loadOpenApiTypeScript(cwd)
  return HEADER + astToString(await openapiTS(document as OpenAPI3, { defaultNonNullable: false }))
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

/** Whether openapi-typescript resolves from the application (or fw-runtime's own folder), without loading it. */
function hasOpenApiTypeScript(cwd: string): boolean {
  return [join(cwd, 'package.json'), import.meta.url].some((from) => {
    try {
      createRequire(from).resolve('openapi-typescript')
      return true
    } catch {
      return false
    }
  })
}

/**
 * What the development server does once its routes are loaded (`fw serve` and `fw serve:node` ask for it with
 * `FW_API_TYPES=write`): writes `.fw/api.d.ts` when the routes' types changed, so that adding a route updates the client's
 * types without a command. The file is in a dot folder, which the server's watcher ignores: writing it restarts nothing.
 * An app without openapi-typescript is left alone, with one line when it has the file (it would go stale). A failure is
 * reported on one line and never stops the server.
 *
 * @example
 * ```ts
 * if (process.env.FW_API_TYPES === 'write') void refreshApiTypes(router.getRoutes(), appRoot())
 * ```
 */
export async function refreshApiTypes(routes: readonly RouteDefinition[], cwd: string): Promise<ApiTypesState | undefined> {
  if (!hasOpenApiTypeScript(cwd)) {
    if (existsSync(join(cwd, API_TYPES_FILE))) {
      console.warn(`[fw] ${API_TYPES_FILE} is not kept up to date: openapi-typescript is not installed (npm install --save-dev openapi-typescript@^7.13.0)`)
    }
    return undefined
  }
  try {
    const state = await writeApiTypes(await appOpenApiDocument(routes, cwd), cwd)
    if (state === 'written') console.log(`[fw] Wrote ${API_TYPES_FILE}: ${routes.length} ${routes.length === 1 ? 'route' : 'routes'}.`)
    return state
  } catch (error) {
    console.warn(`[fw] Could not write ${API_TYPES_FILE}: ${(error as Error).message}`)
    return undefined
  }
}
