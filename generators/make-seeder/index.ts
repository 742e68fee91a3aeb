import type { Command } from '../../runtime/src/cli/Command.js'
import { classPath } from '../../runtime/src/cli/generate/names.js'
import { stub } from '../../runtime/src/cli/generate/stub.js'
import { writeFiles } from '../../runtime/src/cli/generate/writeFiles.js'

/** `fw make:seeder UserSeeder`: `database/seeders/UserSeeder.ts`, run by `fw db:seed`. */
export const makeSeeder: Command = {
  name: 'make:seeder',
  summary: 'Create a seeder in database/seeders, run by fw db:seed',
  usage: 'make:seeder <Name> [--force]',
  details: [
    'Writes database/seeders/<Name>.ts exporting run(db).',
    'fw db:seed runs database/seeders/DatabaseSeeder.ts when there is one, else every seeder in name order.',
    '--force  overwrite the file if it exists',
  ],
  arguments: 1,
  options: { force: { type: 'boolean', short: 'f' } },
  async run({ positionals, values, cwd }) {
    const { className } = classPath(positionals[0]!, 'seeder', 'UserSeeder')
    const file = { path: `database/seeders/${className}.ts`, content: stub('make-seeder', 'seeder.stub', { className }) }
    writeFiles(cwd, [file], values.force === true)
    console.log(`Created ${file.path}`)
  },
}
