import type { Command } from '../../runtime/src/cli/Command.js'
import { classPath, snakeCase } from '../../runtime/src/cli/generate/names.js'
import { stub } from '../../runtime/src/cli/generate/stub.js'
import { writeFiles } from '../../runtime/src/cli/generate/writeFiles.js'

/** `fw make:mail WelcomeMail`: `App/Mail/WelcomeMail.ts`, a mail class with typed data, a subject, HTML and text. */
export const makeMail: Command = {
  name: 'make:mail',
  summary: 'Create a mail class in App/Mail',
  usage: 'make:mail <Name> [--force]',
  details: [
    'Writes App/Mail/<Name>.ts: a class with typed data, a subject, html() with the html tag, and text().',
    "Send it with await mail.to(user.email).send(new <Name>({ … })) (mail from 'fw-runtime/mail'): it is queued, and",
    'the mailer MAIL_MAILER names sends it (log, the default outside production; smtp with MAIL_URL; array for tests).',
    'In a test, mail.fake() records it; /_fw/mail shows what the log mailer wrote, in development.',
    '--force  overwrite the file if it exists',
  ],
  arguments: 1,
  options: { force: { type: 'boolean', short: 'f' } },
  async run({ positionals, values, cwd }) {
    const name = positionals[0]!
    const { className } = classPath(name, 'mail', 'WelcomeMail')
    const sentence = snakeCase(className).replace(/_/g, ' ')
    const words = sentence.charAt(0).toUpperCase() + sentence.slice(1)
    // WelcomeMail's subject is "Welcome", not "Welcome mail".
    const subject = words.replace(/ mail$/, '')
    const file = { path: `App/Mail/${name}.ts`, content: stub('make-mail', 'mail.stub', { className, words, subject }) }
    writeFiles(cwd, [file], values.force === true)
    console.log(`Created ${file.path}`)
    console.log(`Send it with: await mail.to(user.email).send(new ${className}({ … }))`)
  },
}
