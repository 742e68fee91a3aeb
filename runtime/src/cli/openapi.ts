import { relative, resolve } from 'node:path'
import { CommandError, type Command } from './Command.js'
import { readGeneratedFile, replaceGeneratedFile } from './generate/generatedFile.js'
import { loadAppRoutes, ROUTES } from './loadAppRoutes.js'

const DEFAULT_OUT = 'openapi.json'

/** `fw openapi [--out openapi.json] [--check]`: the OpenAPI document of the routes, written to a file or checked against it. */
export const openapi: Command = {
  name: 'openapi',
  summary: 'Write the OpenAPI 3.1.0 document of the routes to openapi.json, or check that it is up to date',
  usage: 'openapi [--out openapi.json] [--check]',
  details: [
    `Loads ${ROUTES} (and the files it imports) and writes the document that GET /openapi.json serves: every route, with`,
    'the contracts it declares (.body, .query, .params, .returns); info from package.json.',
    '--out <file>  where to write it (default openapi.json, in the application\'s folder)',
    '--check       write nothing; exit 1 when the file is missing or differs from the routes (for CI)',
  ],
  options: { out: { type: 'string', short: 'o' }, check: { type: 'boolean' } },
  async run({ values, cwd }) {
    const out = resolve(cwd, typeof values.out === 'string' && values.out !== '' ? values.out : DEFAULT_OUT)
    const shown = relative(cwd, out) || out
    const { routes } = await loadAppRoutes(cwd)
    const { appOpenApiDocument } = await import('../openapi/appOpenApiDocument.js')
    const text = `${JSON.stringify(await appOpenApiDocument(routes, cwd), null, 2)}\n`
    if (values.check === true) {
      const written = readGeneratedFile(out)
      if (written === undefined) throw new CommandError(`${shown} does not exist: run fw openapi${values.out ? ` --out ${values.out}` : ''} to write it`)
      if (written !== text) throw new CommandError(`${shown} is stale: the routes' document differs from it; run fw openapi${values.out ? ` --out ${values.out}` : ''} to write it again`)
      console.log(`${shown} is up to date (${routes.length} routes).`)
      return 0
    }
    replaceGeneratedFile(out, text)
    console.log(`Wrote ${shown}: ${routes.length} routes.`)
    return 0
  },
}
