import type { Command } from '../../runtime/src/cli/Command.js'
import { classPath } from '../../runtime/src/cli/generate/names.js'
import { stub } from '../../runtime/src/cli/generate/stub.js'
import { writeFiles } from '../../runtime/src/cli/generate/writeFiles.js'

/** `fw make:test Feature/CheckoutTest`: `tests/Feature/CheckoutTest.test.ts`, requesting the app in process. */
export const makeTest: Command = {
  name: 'make:test',
  summary: 'Create a test in tests/ that requests the application in process',
  usage: 'make:test <Name> [--force]',
  details: [
    'Writes tests/<Name>.test.ts: it requests the app with tests/app.ts (routes/web.ts on a router, fw-runtime/testing)',
    'without starting a server (the way Laravel\'s $this->get(\'/\') does), on the tests\' own database, emptied before',
    'each test (refreshDatabase): never the development one.',
    '--force  overwrite the file if it exists',
  ],
  arguments: 1,
  options: { force: { type: 'boolean', short: 'f' } },
  async run({ positionals, values, cwd }) {
    const name = positionals[0]!
    const { className } = classPath(name, 'test', 'CheckoutTest')
    // tests/app.ts, from tests/<Name>.test.ts in a folder or not: tests have no alias of their own.
    const app = `${'../'.repeat(name.split('/').length - 1) || './'}app.js`
    const file = { path: `tests/${name}.test.ts`, content: stub('make-test', 'test.stub', { className, app }) }
    writeFiles(cwd, [file], values.force === true)
    console.log(`Created ${file.path}`)
  },
}
