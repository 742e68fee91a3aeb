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
    'Writes tests/<Name>.test.ts: it loads routes/web.ts into a router and requests it with fw-runtime/testing,',
    'without starting a server (the way Laravel\'s $this->get(\'/\') does).',
    '--force  overwrite the file if it exists',
  ],
  arguments: 1,
  options: { force: { type: 'boolean', short: 'f' } },
  async run({ positionals, values, cwd }) {
    const name = positionals[0]!
    const { className } = classPath(name, 'test', 'CheckoutTest')
    const file = { path: `tests/${name}.test.ts`, content: stub('make-test', 'test.stub', { className }) }
    writeFiles(cwd, [file], values.force === true)
    console.log(`Created ${file.path}`)
  },
}
