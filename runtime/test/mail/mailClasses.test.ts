// A worker of its own process (fw queue:work) has sent no mail: it loads the app's mail classes (App/Mail) with its
// jobs, so that SendQueuedMail can build a mail class again and ask its shouldSend().
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Container } from '../../src/container/Container.js'
import { mailClassNamed } from '../../src/mail/mailClasses.js'
import type { QueuedMessage } from '../../src/mail/MailMessage.js'
import { SendQueuedMail } from '../../src/mail/SendQueuedMail.js'
import { mail } from '../../src/mail.js'
import { bootAppJobs } from '../../src/queue/appJobs.js'

let folder: string
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'fw-mail-classes-'))
  mkdirSync(join(folder, 'App/Mail/Digests'), { recursive: true })
  const mailable = JSON.stringify(new URL('../../src/mail.ts', import.meta.url).href)
  writeFileSync(
    join(folder, 'App/Mail/Digests/DigestMail.ts'),
    `import { Mailable } from ${mailable}
export class DigestMail extends Mailable<{ due: boolean }> {
  subject = 'Your digest'
  html() { return '<p>News</p>' }
  shouldSend() { return Promise.resolve(this.data.due) }
}
`,
  )
  process.env.MAIL_MAILER = 'array'
})
afterAll(() => {
  delete process.env.MAIL_MAILER
  rmSync(folder, { recursive: true, force: true })
})

const message = (due: boolean): QueuedMessage => ({
  mailable: 'DigestMail',
  from: { email: 'news@shop.example.test' },
  to: [{ email: 'ada@example.com' }],
  cc: [],
  bcc: [],
  subject: 'Your digest',
  html: '<p>News</p>',
  shouldSend: { data: { due } },
})

describe('mail classes in a worker', () => {
  it('fails a mail whose class has shouldSend() at once, saying why, when the worker does not know the class', async () => {
    expect(mailClassNamed('DigestMail')).toBeUndefined()
    const failure = new SendQueuedMail().handle(message(true))
    await expect(failure).rejects.toThrow(
      'DigestMail has shouldSend(), and this worker has no mail class of that name in App/Mail to ask it: was it renamed or deleted?',
    )
    await expect(failure).rejects.toMatchObject({ name: 'UnrecoverableJobError' })
  })

  it('knows the classes of App/Mail once booted as fw queue:work boots, and sends only what shouldSend() lets through', async () => {
    await bootAppJobs(folder, new Container(), false)
    expect(mailClassNamed('DigestMail')?.name).toBe('DigestMail')
    const before = mail.sent().length
    await new SendQueuedMail().handle(message(false))
    expect(mail.sent().length).toBe(before)
    await new SendQueuedMail().handle(message(true))
    expect(mail.sent().slice(before)).toEqual([expect.objectContaining({ mailable: 'DigestMail', subject: 'Your digest' })])
    // What the mailer gets is the message, without the data queued to ask shouldSend().
    expect(mail.sent().at(-1)).not.toHaveProperty('shouldSend')
  })
})
