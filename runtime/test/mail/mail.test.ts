import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { mail, Mailable } from '../../src/mail.js'
import { recentMail } from '../../src/mail/logMailer.js'
import { SendQueuedMail } from '../../src/mail/SendQueuedMail.js'
import { queue } from '../../src/queue.js'
import { html, type SafeHtml } from '../../src/view/html.js'

class WelcomeMail extends Mailable<{ name: string }> {
  subject = `Welcome, ${this.data.name}`

  html(): SafeHtml {
    return html`<p>Hello ${this.data.name}</p>`
  }

  override text(): string {
    return `Hello ${this.data.name}`
  }
}

class ReceiptMail extends Mailable {
  subject = 'Your receipt'
  override from = 'Billing <billing@acme.test>'
  override replyTo = { name: 'Support', email: 'support@acme.test' }

  html(): string {
    return '<p>Thank you</p>'
  }
}

/** A mail whose subject the test sets, to see what a bad one does. */
class AnyMail extends Mailable<{ subject: string }> {
  subject = this.data.subject

  html(): string {
    return '<p>Hi</p>'
  }
}

const MAIL_ENV = ['MAIL_MAILER', 'MAIL_URL', 'MAIL_FROM', 'MAIL_TIMEOUT', 'QUEUE_DRIVER', 'NODE_ENV', 'APP_ENV', 'APP_NAME']
let saved: Record<string, string | undefined>

beforeEach(() => {
  saved = Object.fromEntries(MAIL_ENV.map((key) => [key, process.env[key]]))
  for (const key of MAIL_ENV) delete process.env[key]
})
afterEach(() => {
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key]
    else process.env[key] = value
  }
  mail.restore()
  queue.restore()
  vi.restoreAllMocks()
})

describe('mail.to().send()', () => {
  it('renders the mail class in the caller and queues the message as SendQueuedMail', async () => {
    const jobs = queue.fake()
    await mail.to(['Ada Lovelace <ada@example.com>', { email: 'grace@example.com' }]).send(new WelcomeMail({ name: 'Ada' }), { queue: 'mail', delay: 60 })
    await mail.to('"Lovelace, Ada" <ada@example.com>').send(new ReceiptMail())
    const [welcome, receipt] = jobs.pushed(SendQueuedMail)
    expect(welcome!.payload).toEqual({
      mailable: 'WelcomeMail',
      // The default sender, which the worker's settings give when it delivers the mail.
      from: null,
      to: [{ name: 'Ada Lovelace', email: 'ada@example.com' }, { email: 'grace@example.com' }],
      cc: [],
      bcc: [],
      subject: 'Welcome, Ada',
      html: '<p>Hello Ada</p>',
      text: 'Hello Ada',
    })
    expect(welcome!.options).toMatchObject({ queue: 'mail', attempts: 5, backoff: 10 })
    expect(receipt!.payload).toMatchObject({
      from: { name: 'Billing', email: 'billing@acme.test' },
      replyTo: { name: 'Support', email: 'support@acme.test' },
      to: [{ name: 'Lovelace, Ada', email: 'ada@example.com' }],
      html: '<p>Thank you</p>',
    })
    expect(receipt!.payload).not.toHaveProperty('text')
  })

  it('refuses a line break (CR or LF) in an address or the subject, naming the field and the value', async () => {
    const jobs = queue.fake()
    const send = (to: Parameters<typeof mail.to>[0], subject = 'Hi') => mail.to(to).send(new AnyMail({ subject }))
    await expect(send('ada@example.com\r\nBcc: eve@example.com')).rejects.toThrow(
      new TypeError('AnyMail: the to address "ada@example.com\\r\\nBcc: eve@example.com" holds a line break (CR or LF), which would start a header of its own: refused'),
    )
    await expect(send({ name: 'Ada\nBcc: eve@example.com', email: 'ada@example.com' })).rejects.toThrow(/^AnyMail: the to address .* holds a line break/)
    await expect(mail.to('ada@example.com').cc('x@example.com\n').send(new AnyMail({ subject: 'Hi' }))).rejects.toThrow(/^AnyMail: the cc address "x@example.com\\n" holds a line break/)
    await expect(send('ada@example.com', 'Hello\r\nBcc: eve@example.com')).rejects.toThrow(
      new TypeError('AnyMail: the subject "Hello\\r\\nBcc: eve@example.com" holds a line break (CR or LF), which would start a header of its own: refused'),
    )
    jobs.assertNothingPushed()
    // MAIL_FROM is read where the mail is delivered: sendNow() here.
    process.env.MAIL_FROM = 'Acme <hello@acme.test>\r\nBcc: eve@example.com'
    await expect(mail.to('ada@example.com').sendNow(new AnyMail({ subject: 'Hi' }))).rejects.toThrow(/^AnyMail: the from address \(MAIL_FROM\) .* holds a line break/)
  })

  it('refuses what is not an email address, an empty subject and a mail with no recipient', async () => {
    queue.fake()
    await expect(mail.to('ada').send(new AnyMail({ subject: 'Hi' }))).rejects.toThrow(
      new TypeError('AnyMail: the to address "ada" is not an email address: write ada@example.com, or Ada Lovelace <ada@example.com>'),
    )
    await expect(mail.to('ada@example.com, eve@example.com').send(new AnyMail({ subject: 'Hi' }))).rejects.toThrow(/is not an email address/)
    await expect(mail.to('ada@example.com').send(new AnyMail({ subject: ' ' }))).rejects.toThrow(`AnyMail: subject must be text, got " " (set subject = '…' in the class)`)
    await expect(mail.to([]).send(new AnyMail({ subject: 'Hi' }))).rejects.toThrow('AnyMail: the mail has no recipient: name one with mail.to(address)')
  })

  it('send() reads no mail setting: it queues the mail whatever they are', async () => {
    const jobs = queue.fake()
    const send = () => mail.to('ada@example.com').send(new WelcomeMail({ name: 'Ada' }))
    const settings = [{ MAIL_MAILER: 'smtp' }, { MAIL_MAILER: 'sendgrid' }, { MAIL_MAILER: 'smtp', MAIL_URL: 'https://smtp.example.com' }, { MAIL_TIMEOUT: 'soon' }, { NODE_ENV: 'production' }]
    for (const env of settings) {
      for (const key of MAIL_ENV) delete process.env[key]
      Object.assign(process.env, env)
      await expect(send()).resolves.toBeUndefined()
    }
    expect(jobs.pushed(SendQueuedMail)).toHaveLength(settings.length)
  })

  it('sendNow() says what to set: MAIL_FROM for smtp, a known MAIL_MAILER, and MAIL_MAILER in production', async () => {
    const send = () => mail.to('ada@example.com').sendNow(new WelcomeMail({ name: 'Ada' }))
    Object.assign(process.env, { MAIL_MAILER: 'smtp', MAIL_URL: 'smtp://user:secret@smtp.example.com:587' })
    await expect(send()).rejects.toThrow('MAIL_FROM is not set: set it to the address your mail comes from, e.g. MAIL_FROM="Acme <hello@acme.com>" (or give the mail class a from)')
    // As a job, such a mail fails at once: trying again cannot help.
    await expect(send()).rejects.toMatchObject({ name: 'UnrecoverableJobError' })

    process.env.MAIL_FROM = 'Acme <hello@acme.test>'
    delete process.env.MAIL_URL
    await expect(send()).rejects.toThrow('MAIL_MAILER=smtp needs MAIL_URL: set MAIL_URL=smtp://user:pass@host:port (smtps:// for TLS from the first byte; user and pass URL-encoded)')
    process.env.MAIL_URL = 'https://user:secret@smtp.example.com'
    await expect(send()).rejects.toThrow(/^MAIL_URL must be smtp:\/\/user:pass@host:port .*; it is a https: URL$/)
    process.env.MAIL_URL = 'smtp://user:secret@smtp.example.com:587?socketTimeout=600000'
    await expect(send()).rejects.toThrow('MAIL_URL sets socketTimeout: Fw keeps each SMTP timeout at 10 s at most; set MAIL_TIMEOUT (seconds) instead')
    process.env.MAIL_URL = 'smtp://user:secret@smtp.example.com:587'
    for (const timeout of ['30', '0', 'soon']) {
      process.env.MAIL_TIMEOUT = timeout
      await expect(send()).rejects.toThrow(`MAIL_TIMEOUT=${timeout} is not a number of seconds above 0 and at most 10 (the default)`)
    }

    process.env.MAIL_MAILER = 'sendgrid'
    await expect(send()).rejects.toThrow('MAIL_MAILER=sendgrid is not a mailer of Fw; it has: smtp, log, array')

    delete process.env.MAIL_MAILER
    process.env.NODE_ENV = 'production'
    await expect(send()).rejects.toThrow(
      'MAIL_MAILER is not set, and in production Fw will not write mail to the log instead of sending it: set MAIL_MAILER=smtp and MAIL_URL=smtp://user:pass@host:port',
    )
  })

  it('without MAIL_FROM, the log and array mailers send from hello@example.com in the name of APP_NAME', async () => {
    Object.assign(process.env, { QUEUE_DRIVER: 'sync', MAIL_MAILER: 'array', APP_NAME: 'Acme "Shop" <Books>' })
    const before = mail.sent().length
    await mail.to('ada@example.com').send(new WelcomeMail({ name: 'Ada' }))
    await mail.to('ada@example.com').sendNow(new WelcomeMail({ name: 'Ada' }))
    const from = { name: 'Acme "Shop" <Books>', email: 'hello@example.com' }
    expect(mail.sent().slice(before).map((message) => message.from)).toEqual([from, from])

    const fake = mail.fake()
    await mail.to('ada@example.com').send(new WelcomeMail({ name: 'Ada' }))
    process.env.APP_NAME = ' '
    await mail.to('ada@example.com').send(new WelcomeMail({ name: 'Ada' }))
    process.env.MAIL_FROM = 'Orders <orders@acme.test>'
    await mail.to('ada@example.com').send(new WelcomeMail({ name: 'Ada' }))
    expect(fake.sent(WelcomeMail).map(({ message }) => message.from)).toEqual([
      from,
      { name: 'Fw', email: 'hello@example.com' },
      { name: 'Orders', email: 'orders@acme.test' },
    ])
  })

  it('under QUEUE_DRIVER=sync, sends at dispatch: the array mailer keeps it for mail.sent()', async () => {
    Object.assign(process.env, { QUEUE_DRIVER: 'sync', MAIL_MAILER: 'array' })
    const before = mail.sent().length
    await mail.to('ada@example.com').send(new WelcomeMail({ name: 'Ada' }))
    expect(mail.sent().slice(before)).toEqual([expect.objectContaining({ mailable: 'WelcomeMail', subject: 'Welcome, Ada', from: { name: 'Fw', email: 'hello@example.com' } })])
    delete process.env.MAIL_MAILER
    expect(() => mail.sent()).toThrow('mail.sent() reads what the array mailer keeps, and the mailer is log: set MAIL_MAILER=array, or use mail.fake()')
  })

  it('the log mailer (the default outside production) writes the whole message to the log and keeps it for /_fw/mail', async () => {
    const lines: string[] = []
    vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line))
    await mail.to('Ada <ada@example.com>').cc('grace@example.com').sendNow(new WelcomeMail({ name: 'Ada' }))
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(
      [
        'Mail WelcomeMail, written to the log instead of sent (MAIL_MAILER=log):',
        'From: Fw <hello@example.com>',
        'To: Ada <ada@example.com>',
        'Cc: grace@example.com',
        'Subject: Welcome, Ada',
        '--- text ---',
        'Hello Ada',
        '--- html ---',
        '<p>Hello Ada</p>',
      ].join('\n'),
    )
    expect(recentMail()[0]!.message).toMatchObject({ mailable: 'WelcomeMail', subject: 'Welcome, Ada' })
  })
})

describe('mail.fake()', () => {
  it('records each mail instead of queueing it, and asserts as Laravel does', async () => {
    const jobs = queue.fake()
    const mails = mail.fake()
    mails.assertNothingSent()
    await mail.to('ada@example.com').send(new WelcomeMail({ name: 'Ada' }))
    await mail.to('grace@example.com').sendNow(new WelcomeMail({ name: 'Grace' }))
    jobs.assertNothingPushed()

    mails.assertSent(WelcomeMail)
    mails.assertSent(WelcomeMail, (message, welcome) => message.to[0]?.email === 'ada@example.com' && welcome.data.name === 'Ada')
    mails.assertSentTimes(WelcomeMail, 2)
    mails.assertNotSent(ReceiptMail)
    mails.assertNotSent(WelcomeMail, (message) => message.subject === 'Welcome, Eve')
    expect(mails.sent(WelcomeMail).map(({ message, queued }) => [message.subject, queued])).toEqual([
      ['Welcome, Ada', true],
      ['Welcome, Grace', false],
    ])
  })

  it('fails with messages that say what was sent', async () => {
    const mails = mail.fake()
    expect(() => mails.assertSent(WelcomeMail)).toThrow(/^Expected WelcomeMail to be sent$/)
    await mail.to('Ada <ada@example.com>').send(new WelcomeMail({ name: 'Ada' }))
    expect(() => mails.assertSent(WelcomeMail, () => false)).toThrow('Expected WelcomeMail to be sent with a matching message; sent to: Ada <ada@example.com> ("Welcome, Ada")')
    expect(() => mails.assertSentTimes(WelcomeMail, 2)).toThrow('Expected WelcomeMail to be sent 2 time(s), it was sent 1; sent to: Ada <ada@example.com> ("Welcome, Ada")')
    expect(() => mails.assertNotSent(WelcomeMail)).toThrow('Expected WelcomeMail not to be sent; sent to: Ada <ada@example.com> ("Welcome, Ada")')
    expect(() => mails.assertNothingSent()).toThrow('Expected no mail to be sent, got WelcomeMail')
    expect(() => mails.assertSent(ReceiptMail)).toThrow(/^Expected ReceiptMail to be sent$/)
  })

  it('still checks the mail as it renders it, whatever the mailer settings', async () => {
    process.env.NODE_ENV = 'production'
    const mails = mail.fake()
    await expect(mail.to('ada@example.com').send(new AnyMail({ subject: 'Hi\nthere' }))).rejects.toThrow(/holds a line break/)
    await mail.to('ada@example.com').send(new AnyMail({ subject: 'Hi' }))
    mails.assertSentTimes(AnyMail, 1)
    mail.restore()
    await expect(mail.to('ada@example.com').sendNow(new AnyMail({ subject: 'Hi' }))).rejects.toThrow(/^MAIL_MAILER is not set/)
  })
})
