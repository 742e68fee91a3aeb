import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { CommandError, type Command } from '../../runtime/src/cli/Command.js'
import { classPath, plural, snakeCase } from '../../runtime/src/cli/generate/names.js'
import { stub } from '../../runtime/src/cli/generate/stub.js'
import { writeFiles, type GeneratedFile } from '../../runtime/src/cli/generate/writeFiles.js'
import { SCHEMA_TYPES_FILE } from '../../runtime/src/database/schemaTypes/renderSchemaTypes.js'
import { readSchemaTypes } from '../../runtime/src/database/schemaTypes/readSchemaTypes.js'
import { factoryDefinition, type FactoryDefinition } from './factoryDefinition.js'

/**
 * `database/factories/<Model>Factory.ts` for the model `name` (`Post`, or `Blog/Post` in a folder): with a fake value
 * for each column of its table when database/schema.d.ts knows the table, else an example line to fill in.
 */
export function factoryFile(cwd: string, name: string): GeneratedFile {
  const { className } = classPath(name, 'model', 'Post')
  const words = plural(snakeCase(className)).replace(/_/g, ' ')
  const { lines, context } = definitionOf(cwd, name, className) ?? { lines: ['  // title: faker.lorem.sentence(),'], context: '{ faker }' }
  return {
    path: `database/factories/${name}Factory.ts`,
    content: stub('make-factory', 'factory.stub', { className, name, words, context: context === '' ? '()' : `(${context})`, definition: lines.join('\n') }),
  }
}

/** The definition for the model's table from database/schema.d.ts; undefined when the file or the table is not there. */
function definitionOf(cwd: string, name: string, className: string): FactoryDefinition | undefined {
  const schema = join(cwd, SCHEMA_TYPES_FILE)
  if (!existsSync(schema)) return undefined
  const { tables, types } = readSchemaTypes(readFileSync(schema, 'utf8'))
  const columns = tables.get(tableOf(cwd, name, className))
  return columns && factoryDefinition(columns, types)
}

/** The table the model names (`Model('posts')`), or the one make:model gives it (Post → posts) before the model is written. */
function tableOf(cwd: string, name: string, className: string): string {
  const model = join(cwd, `App/Models/${name}.ts`)
  const named = existsSync(model) ? /\bModel\(\s*(['"])([^'"]+)\1/.exec(readFileSync(model, 'utf8'))?.[2] : undefined
  return named ?? plural(snakeCase(className))
}

/** `fw make:factory Post` */
export const makeFactory: Command = {
  name: 'make:factory',
  summary: 'Create a model factory in database/factories, for fake rows in tests and seeders',
  usage: 'make:factory <Model> [--force]',
  details: [
    'Writes database/factories/<Model>Factory.ts for App/Models/<Model>.ts: the values of a fake row, made with',
    '@faker-js/faker, one for each column database/schema.d.ts knows (by its name: email, name, title, body, url…,',
    'else by its type), but keys and defaults the database fills, timestamps, and foreign keys (.for(row) sets them).',
    'Then PostFactory.count(50).create(), .state({ … }), .for(user), .has(CommentFactory.count(3)).',
    'For Post.factory(), give the model `static factory = () => PostFactory` (fw make:model Post --factory does).',
    '--force  overwrite the file if it exists',
  ],
  arguments: 1,
  options: { force: { type: 'boolean', short: 'f' } },
  async run({ positionals, values, cwd }) {
    const name = positionals[0]!
    const file = factoryFile(cwd, name)
    if (!existsSync(join(cwd, `App/Models/${name}.ts`))) {
      throw new CommandError(`App/Models/${name}.ts does not exist: make the model first (fw make:model ${name} --factory writes both)`)
    }
    writeFiles(cwd, [file], values.force === true)
    console.log(`Created ${file.path}`)
    const { className } = classPath(name, 'model', 'Post')
    console.log(`Use it as ${className}Factory.count(10).create(); for ${className}.factory(), add to the model: static factory = () => ${className}Factory`)
  },
}
