import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { cleanEnv, createFwApp, type FwApp } from '../support/fwApp.js'

const repository = fileURLToPath(new URL('../../../', import.meta.url))

let app: FwApp
beforeEach(() => {
  app = createFwApp()
})
afterEach(() => app.remove())

describe('fw make:mail', () => {
  it('writes a mail class with typed data, a subject, html and text, and says how to send it', async () => {
    const made = await app.fw(['make:mail', 'WelcomeMail'])
    expect(made).toMatchObject({ code: 0, stderr: '', stdout: 'Created App/Mail/WelcomeMail.ts\nSend it with: await mail.to(user.email).send(new WelcomeMail({ … }))\n' })
    const source = app.read('App/Mail/WelcomeMail.ts')
    expect(source).toContain("import { html, type SafeHtml } from 'fw-runtime'\nimport { Mailable } from 'fw-runtime/mail'\n")
    expect(source).toContain('export interface WelcomeMailData {\n  name: string\n}')
    expect(source).toContain(' * Welcome mail: `await mail.to(user.email).send(new WelcomeMail({ name: user.name }))`')
    expect(source).toContain("export class WelcomeMail extends Mailable<WelcomeMailData> {\n  subject = 'Welcome'\n")
    expect(source).not.toContain('{{')
  })

  it('writes a class that type-checks as the starters check it, and renders its subject, html and text', async () => {
    await app.fw(['make:mail', 'Orders/OrderShipped'])
    app.write('tsconfig.json', readFileSync(join(repository, 'template/api/tsconfig.json'), 'utf8'))
    // The starters' types: ["node"], installed with the app.
    mkdirSync(join(app.dir, 'node_modules/@types'))
    symlinkSync(join(repository, 'node_modules/@types/node'), join(app.dir, 'node_modules/@types/node'), 'dir')
    const tsc = spawnSync(process.execPath, [join(repository, 'node_modules/typescript/bin/tsc'), '-p', '.'], { cwd: app.dir, encoding: 'utf8' })
    expect(tsc.stdout + tsc.stderr).toBe('')
    expect(tsc.status).toBe(0)

    app.write(
      'render.ts',
      [
        "import { mail } from 'fw-runtime/mail'",
        "import { OrderShipped } from './App/Mail/Orders/OrderShipped.ts'",
        'const mails = mail.fake()',
        "await mail.to('ada@example.com').send(new OrderShipped({ name: 'Ada <3' }))",
        'console.log(JSON.stringify(mails.sent(OrderShipped)[0]!.message))',
        '',
      ].join('\n'),
    )
    const tsx = join(repository, 'node_modules/tsx/dist/cli.mjs')
    const rendered = spawnSync(process.execPath, [tsx, 'render.ts'], { cwd: app.dir, env: cleanEnv(), encoding: 'utf8' })
    expect(rendered.stderr).toBe('')
    const message = JSON.parse(rendered.stdout)
    expect(message).toMatchObject({ mailable: 'OrderShipped', subject: 'Order shipped', to: [{ email: 'ada@example.com' }], text: 'Hello Ada <3,\n\n…' })
    expect(message.html).toContain('<p>Hello Ada &lt;3,</p>')
  })

  it('never overwrites without --force, and refuses a name that is not a class name', async () => {
    expect((await app.fw(['make:mail', 'WelcomeMail'])).code).toBe(0)
    const again = await app.fw(['make:mail', 'WelcomeMail'])
    expect([again.code, again.stderr]).toEqual([1, 'App/Mail/WelcomeMail.ts already exists; use --force to overwrite it\n'])
    expect((await app.fw(['make:mail', 'WelcomeMail', '--force'])).code).toBe(0)
    const refused = await app.fw(['make:mail', 'welcome-mail'])
    expect([refused.code, refused.stderr]).toEqual([
      1,
      '"welcome-mail" is not a valid mail name: use a PascalCase class name such as WelcomeMail, optionally in folders (Admin/WelcomeMail)\n',
    ])
    expect(app.files('App')).toEqual(['Mail/WelcomeMail.ts'])
  })
})
