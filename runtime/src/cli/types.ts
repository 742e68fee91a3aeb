import { API_TYPES_FILE } from '../openapi/apiTypes.js'
import { CommandError, type Command } from './Command.js'
import { loadAppRoutes, ROUTES } from './loadAppRoutes.js'

/** `fw types [--check]`: the TypeScript types of the routes' OpenAPI document, for fw-runtime/client. */
export const types: Command = {
  name: 'types',
  summary: `Write ${API_TYPES_FILE}, the types of the routes' OpenAPI document for fw-runtime/client (--check: exit 1 if stale)`,
  usage: 'types [--check]',
  details: [
    `Loads ${ROUTES} (and the files it imports), builds the document GET /openapi.json serves and writes its types`,
    `(paths, operations, components) to ${API_TYPES_FILE} through openapi-typescript, only when they change.`,
    "createClient<paths>() from fw-runtime/client reads them: a call to an unknown path or with a wrong body fails tsc.",
    '--check  write nothing; exit 1 when the file is missing or differs from the routes (for CI)',
  ],
  options: { check: { type: 'boolean' } },
  async run({ values, cwd }) {
    const { routes } = await loadAppRoutes(cwd)
    const [{ appOpenApiDocument }, { writeApiTypes }] = await Promise.all([import('../openapi/appOpenApiDocument.js'), import('../openapi/apiTypes.js')])
    const state = await writeApiTypes(await appOpenApiDocument(routes, cwd), cwd, { check: values.check === true })
    const count = `${routes.length} ${routes.length === 1 ? 'route' : 'routes'}`
    if (state === 'missing') throw new CommandError(`${API_TYPES_FILE} is missing: run fw types to write it`)
    if (state === 'stale') throw new CommandError(`${API_TYPES_FILE} is stale: the routes' document differs from it; run fw types to write it again`)
    console.log(state === 'written' ? `Wrote ${API_TYPES_FILE}: ${count}.` : `Unchanged ${API_TYPES_FILE} (${count}).`)
    return 0
  },
}
