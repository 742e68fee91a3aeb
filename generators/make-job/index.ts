import type { Command } from '../../runtime/src/cli/Command.js'
import { classPath, snakeCase } from '../../runtime/src/cli/generate/names.js'
import { stub } from '../../runtime/src/cli/generate/stub.js'
import { writeFiles } from '../../runtime/src/cli/generate/writeFiles.js'

/** `fw make:job SendWelcomeEmail`: `App/Jobs/SendWelcomeEmail.ts`, a job class with a typed payload. */
export const makeJob: Command = {
  name: 'make:job',
  summary: 'Create a job in App/Jobs, for work outside the request',
  usage: 'make:job <Name> [--force]',
  details: [
    'Writes App/Jobs/<Name>.ts: a class with a typed payload (plain JSON) and handle(payload).',
    'Dispatch it with await <Name>.dispatch(payload, { delay, queue, attempts, backoff, uniqueKey }).',
    "By default the app's database keeps it for a worker (fw queue:work; fw serve runs one itself); QUEUE_DRIVER=sync",
    'runs it at once, as in the tests (vitest.config.ts); in a test, queue.fake() records it (fw-runtime/queue).',
    '--force  overwrite the file if it exists',
  ],
  arguments: 1,
  options: { force: { type: 'boolean', short: 'f' } },
  async run({ positionals, values, cwd }) {
    const name = positionals[0]!
    const { className } = classPath(name, 'job', 'SendWelcomeEmail')
    const sentence = snakeCase(className).replace(/_/g, ' ')
    const words = sentence.charAt(0).toUpperCase() + sentence.slice(1)
    const file = { path: `App/Jobs/${name}.ts`, content: stub('make-job', 'job.stub', { className, words }) }
    writeFiles(cwd, [file], values.force === true)
    console.log(`Created ${file.path}`)
    console.log(`Dispatch it with: await ${className}.dispatch({ … })`)
  },
}
