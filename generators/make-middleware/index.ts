import type { Command } from '../../runtime/src/cli/Command.js'
import { classPath } from '../../runtime/src/cli/generate/names.js'
import { stub } from '../../runtime/src/cli/generate/stub.js'
import { writeFiles } from '../../runtime/src/cli/generate/writeFiles.js'

/** `fw make:middleware EnsureTeamMember`: `App/Middleware/ensureTeamMember.ts`, exporting `ensureTeamMember`. */
export const makeMiddleware: Command = {
  name: 'make:middleware',
  summary: 'Create a middleware in App/Middleware, with its test',
  usage: 'make:middleware <Name> [--force]',
  details: [
    'Writes App/Middleware/<name>.ts (a function named in camelCase) and tests/Middleware/<name>.test.ts.',
    'Use it on a route with .middleware(name), or name it in bootstrap/app.ts: router.aliasMiddleware(\'name\', name).',
    '--force  overwrite files that exist',
  ],
  arguments: 1,
  options: { force: { type: 'boolean', short: 'f' } },
  async run({ positionals, values, cwd }) {
    const { folders, className } = classPath(positionals[0]!, 'middleware', 'EnsureTeamMember')
    const name = className[0]!.toLowerCase() + className.slice(1)
    const file = [...folders, name].join('/')
    const placeholders = { name, file }
    const files = [
      { path: `App/Middleware/${file}.ts`, content: stub('make-middleware', 'middleware.stub', placeholders) },
      { path: `tests/Middleware/${file}.test.ts`, content: stub('make-middleware', 'middleware.test.stub', placeholders) },
    ]
    writeFiles(cwd, files, values.force === true)
    for (const written of files) console.log(`Created ${written.path}`)
  },
}
