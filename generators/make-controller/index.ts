import type { Command } from '../../runtime/src/cli/Command.js'
import { classPath, kebabCase, plural, snakeCase } from '../../runtime/src/cli/generate/names.js'
import { stub } from '../../runtime/src/cli/generate/stub.js'
import { writeFiles } from '../../runtime/src/cli/generate/writeFiles.js'

/** `fw make:controller Admin/UserController --resource` */
export const makeController: Command = {
  name: 'make:controller',
  summary: 'Create a controller in App/Controllers, with its test',
  usage: 'make:controller <Name> [--resource] [--force]',
  details: [
    'Writes App/Controllers/<Name>.ts and tests/Controllers/<Name>.test.ts.',
    'A name with folders (Admin/UserController) goes into those folders.',
    '--resource  index, show, store, update and destroy',
    '--force     overwrite files that exist',
  ],
  arguments: 1,
  options: { resource: { type: 'boolean', short: 'r' }, force: { type: 'boolean', short: 'f' } },
  async run({ positionals, values, cwd }) {
    const name = positionals[0]!
    const { folders, className } = classPath(name, 'controller', 'UserController')
    const resource = values.resource === true
    const base = className.replace(/Controller$/, '') || className
    const path = '/' + [...folders.map(kebabCase), kebabCase(plural(snakeCase(base)))].join('/')
    const placeholders = { className, path, name }
    const kind = resource ? 'resource-controller' : 'controller'
    const files = [
      { path: `App/Controllers/${name}.ts`, content: stub('make-controller', `${kind}.stub`, placeholders) },
      { path: `tests/Controllers/${name}.test.ts`, content: stub('make-controller', `${kind}.test.stub`, placeholders) },
    ]
    writeFiles(cwd, files, values.force === true)
    for (const file of files) console.log(`Created ${file.path}`)
  },
}
