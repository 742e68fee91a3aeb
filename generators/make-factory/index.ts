import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { CommandError, type Command } from '../../runtime/src/cli/Command.js'
import { classPath, plural, snakeCase } from '../../runtime/src/cli/generate/names.js'
import { stub } from '../../runtime/src/cli/generate/stub.js'
import { writeFiles, type GeneratedFile } from '../../runtime/src/cli/generate/writeFiles.js'

/** `database/factories/<Model>Factory.ts` for the model `name` (`Post`, or `Blog/Post` in a folder). */
export function factoryFile(name: string): GeneratedFile {
  const { className } = classPath(name, 'model', 'Post')
  const words = plural(snakeCase(className)).replace(/_/g, ' ')
  return { path: `database/factories/${name}Factory.ts`, content: stub('make-factory', 'factory.stub', { className, name, words }) }
}

/** `fw make:factory Post` */
export const makeFactory: Command = {
  name: 'make:factory',
  summary: 'Create a model factory in database/factories, for fake rows in tests and seeders',
  usage: 'make:factory <Model> [--force]',
  details: [
    'Writes database/factories/<Model>Factory.ts for App/Models/<Model>.ts: the values of a fake row, made with',
    '@faker-js/faker. Then PostFactory.count(50).create(), .state({ … }), .for(user), .has(CommentFactory.count(3)).',
    'For Post.factory(), give the model `static factory = () => PostFactory` (fw make:model Post --factory does).',
    '--force  overwrite the file if it exists',
  ],
  arguments: 1,
  options: { force: { type: 'boolean', short: 'f' } },
  async run({ positionals, values, cwd }) {
    const name = positionals[0]!
    const file = factoryFile(name)
    if (!existsSync(join(cwd, `App/Models/${name}.ts`))) {
      throw new CommandError(`App/Models/${name}.ts does not exist: make the model first (fw make:model ${name} --factory writes both)`)
    }
    writeFiles(cwd, [file], values.force === true)
    console.log(`Created ${file.path}`)
    const { className } = classPath(name, 'model', 'Post')
    console.log(`Use it as ${className}Factory.count(10).create(); for ${className}.factory(), add to the model: static factory = () => ${className}Factory`)
  },
}
