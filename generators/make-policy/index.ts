import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { CommandError, type Command } from '../../runtime/src/cli/Command.js'
import { classPath, plural, snakeCase } from '../../runtime/src/cli/generate/names.js'
import { stub } from '../../runtime/src/cli/generate/stub.js'
import { writeFiles, type GeneratedFile } from '../../runtime/src/cli/generate/writeFiles.js'
import { SCHEMA_TYPES_FILE } from '../../runtime/src/database/schemaTypes/renderSchemaTypes.js'
import { readSchemaTypes } from '../../runtime/src/database/schemaTypes/readSchemaTypes.js'

/** The columns that name a row's owner, in the order looked for: `update` and `delete` then let the owner. */
const OWNER_COLUMNS = ['user_id', 'author_id', 'owner_id']

/** `fw make:policy Post --model=Post`: `App/Policies/PostPolicy.ts`, and a test of it. */
export const makePolicy: Command = {
  name: 'make:policy',
  summary: 'Create a policy in App/Policies: who may view, create, update and delete the rows of a model',
  usage: 'make:policy <Name> [--model=<Model>] [--force]',
  details: [
    'Writes App/Policies/<Name>Policy.ts (Post or PostPolicy → PostPolicy) for App/Models/<Model>.ts (by default the',
    'model of the same name): viewAny, view, create, update and delete, typed by the model\'s row and the signed-in user.',
    'update and delete let the row\'s owner when database/schema.d.ts shows a user_id, author_id or owner_id column;',
    'else they deny until you write the rule. Also writes tests/Policies/<Name>Policy.test.ts.',
    "Register it in bootstrap/app.ts: Gate.policy(Post, PostPolicy) (Gate from 'fw-runtime/authorization'); then",
    "routes use .middleware(auth, 'can:update,post'), handlers await request.authorize('update', post).",
    '--model  the model it is for, e.g. --model=Blog/Post',
    '--force  overwrite the files if they exist',
  ],
  arguments: 1,
  options: { model: { type: 'string', short: 'm' }, force: { type: 'boolean', short: 'f' } },
  async run({ positionals, values, cwd }) {
    const name = positionals[0]!.replace(/Policy$/, '')
    const { folders, className: base } = classPath(name, 'policy', 'Post')
    const modelPath = typeof values.model === 'string' ? values.model : name
    const { className: model } = classPath(modelPath, 'model', 'Post')
    if (!existsSync(join(cwd, `App/Models/${modelPath}.ts`))) {
      throw new CommandError(`App/Models/${modelPath}.ts does not exist: make the model first (fw make:model ${modelPath}), or name another with --model=<Model>`)
    }
    const className = `${base}Policy`
    const path = [...folders, className].join('/')
    const word = snakeCase(model).replace(/_/g, ' ')
    const variable = model[0]!.toLowerCase() + model.slice(1)
    const owner = ownerColumn(cwd, modelPath, model)
    const names = {
      className,
      model,
      modelPath,
      path,
      word,
      words: plural(snakeCase(model)).replace(/_/g, ' '),
      variable,
      ownerRule: owner ? `return user.id === ${variable}.${owner}` : 'return false',
    }
    const files: GeneratedFile[] = [
      { path: `App/Policies/${path}.ts`, content: stub('make-policy', 'policy.stub', names) },
      { path: `tests/Policies/${path}.test.ts`, content: stub('make-policy', 'policy.test.stub', names) },
    ]
    writeFiles(cwd, files, values.force === true)
    for (const file of files) console.log(`Created ${file.path}`)
    console.log(`Register it in bootstrap/app.ts: Gate.policy(${model}, ${className})`)
  },
}

/** The column of the model's table that names its owner, when database/schema.d.ts knows the table. */
function ownerColumn(cwd: string, modelPath: string, model: string): string | undefined {
  const schema = join(cwd, SCHEMA_TYPES_FILE)
  if (!existsSync(schema)) return undefined
  const source = readFileSync(join(cwd, `App/Models/${modelPath}.ts`), 'utf8')
  const table = /\bModel\(\s*(['"])([^'"]+)\1/.exec(source)?.[2] ?? plural(snakeCase(model))
  const columns = readSchemaTypes(readFileSync(schema, 'utf8')).tables.get(table)
  return OWNER_COLUMNS.find((column) => columns?.has(column))
}
