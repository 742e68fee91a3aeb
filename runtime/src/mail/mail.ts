import { keptMail } from './arrayMailer.js'
import { mailConfig } from './mailConfig.js'
import { MailFake } from './MailFake.js'
import type { MailAddress, MailMessage } from './MailMessage.js'
import { PendingMail } from './PendingMail.js'

let fake: MailFake | undefined

/**
 * The application's mail, as Laravel's `Mail` facade: `mail.to(…)` starts a mail, `send()` queues it (a worker hands
 * it to the mailer `MAIL_MAILER` names), `sendNow()` sends it at once; `mail.fake()` records mail in tests.
 *
 * @example
 * ```ts
 * await mail.to({ name: user.name, email: user.email }).send(new WelcomeMail({ name: user.name }))
 * const mails = mail.fake() // in a test
 * ```
 */
export const mail = {
  /** Starts a mail to an address, `Name <address>`, `{ name, email }`, or a list of them. */
  to(addresses: MailAddress | readonly MailAddress[]): PendingMail {
    return new PendingMail(fake).to(addresses)
  },

  /** Records mail instead of queueing or sending it, until `mail.restore()`; returns the fake to assert on. */
  fake(): MailFake {
    fake = new MailFake()
    return fake
  },

  /** Sends mail again after `fake()`. */
  restore(): void {
    fake = undefined
  },

  /** The messages the array mailer (`MAIL_MAILER=array`) kept in this process, oldest first. */
  sent(): readonly MailMessage[] {
    const { mailer } = mailConfig()
    if (mailer !== 'array') throw new Error(`mail.sent() reads what the array mailer keeps, and the mailer is ${mailer}: set MAIL_MAILER=array, or use mail.fake()`)
    return keptMail()
  },
}
