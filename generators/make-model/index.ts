import type { Command } from '../../runtime/src/cli/Command.js'
import { classPath, plural, snakeCase } from '../../runtime/src/cli/generate/names.js'
import { stub } from '../../runtime/src/cli/generate/stub.js'
import { writeFiles, type GeneratedFile } from '../../runtime/src/cli/generate/writeFiles.js'
import { factoryFile } from '../make-factory/index.js'
import { migrationFile } from '../make-migration/index.js'

/** `fw make:model Post -m` */
export const makeModel: Command = {
  name: 'make:model',
  summary: 'Create a model in App/Models (with -m, its migration too; with --factory, its factory)',
  usage: 'make:model <Name> [--migration|-m] [--factory] [--force]',
  details: [
    'Writes App/Models/<Name>.ts: a class over the snake_case plural table (Post → posts, BlogPost → blog_posts,',
    'Person → people; a plural name stays plural, as in Laravel: Posts → posts) with find, findOrFail, where,',
    'query, create, update, delete and paginate. Its columns are typed by database/schema.d.ts, which fw migrate writes.',
    '--migration, -m  also write the create-table migration',
    '--factory        also write database/factories/<Name>Factory.ts, and <Name>.factory() on the model',
    '--force          overwrite the model if it exists',
  ],
  arguments: 1,
  options: { migration: { type: 'boolean', short: 'm' }, factory: { type: 'boolean' }, force: { type: 'boolean', short: 'f' } },
  async run({ positionals, values, cwd }) {
    const name = positionals[0]!
    const { className } = classPath(name, 'model', 'Post')
    const table = plural(snakeCase(className))
    const words = snakeCase(className).replace(/_/g, ' ')
    const files: GeneratedFile[] = [
      {
        path: `App/Models/${name}.ts`,
        content: stub('make-model', values.factory === true ? 'model-with-factory.stub' : 'model.stub', {
          className,
          name,
          table,
          words,
          article: /^[aeiou]/.test(words) ? 'An' : 'A',
          variable: className[0]!.toLowerCase() + className.slice(1),
        }),
      },
    ]
    if (values.migration === true) files.push(migrationFile(cwd, `create_${table}_table`))
    if (values.factory === true) files.push(factoryFile(cwd, name))
    writeFiles(cwd, files, values.force === true)
    for (const file of files) console.log(`Created ${file.path}`)
  },
}
