import { AssertionError } from 'node:assert'
import { afterCommit } from '../database/db.js'
import { formatAddress } from './address.js'
import type { Mailable } from './Mailable.js'
import type { MailMessage } from './MailMessage.js'

/** A mail the fake recorded: the mail class's instance, the message it rendered, and whether it was queued (`send`) or not (`sendNow`). */
export interface SentMail<M> {
  mail: M
  message: MailMessage
  queued: boolean
}

/** A mail class, as the fake's assertions name it. */
type MailableClass<M> = (abstract new (...args: any[]) => M) & { readonly name: string }

type Predicate<M> = (message: MailMessage, mail: M) => boolean

/**
 * What `mail.fake()` puts in place of the mailer, for tests: it sends and queues nothing and records each mail, to
 * assert on as Laravel's `Mail::fake()` does. A mail is still rendered and checked (its addresses and subject) as it
 * would be when sent; one queued inside `transaction()` is recorded once the transaction commits.
 *
 * @example
 * ```ts
 * const mails = mail.fake()
 * await client.post('/register', { name: 'Ada', email: 'ada@example.com' })
 * mails.assertSent(WelcomeMail, (message) => message.to[0]?.email === 'ada@example.com')
 * ```
 */
export class MailFake {
  readonly #sent: SentMail<Mailable<unknown>>[] = []

  /** @internal Records a mail: `mail.to(…).send()` and `sendNow()` call it. */
  async record(mail: Mailable<unknown>, message: MailMessage, queued: boolean): Promise<void> {
    const keep = () => void this.#sent.push({ mail, message, queued })
    if (queued) await afterCommit(keep)
    else keep()
  }

  /** The mails of that class sent so far, in order. */
  sent<M extends Mailable<any>>(type: MailableClass<M>): SentMail<M>[] {
    return this.#sent.filter((sent) => sent.mail.constructor === type) as unknown as SentMail<M>[]
  }

  /** Fails unless a mail of that class was sent (one whose message and instance `matching` accepts, when given). */
  assertSent<M extends Mailable<any>>(type: MailableClass<M>, matching?: Predicate<M>): void {
    if (!this.#matching(type, matching).length) throw this.#failure(type, `Expected ${type.name} to be sent${matching ? ' with a matching message' : ''}`)
  }

  /** Fails unless exactly `times` mails of that class were sent. */
  assertSentTimes<M extends Mailable<any>>(type: MailableClass<M>, times: number): void {
    const count = this.sent(type).length
    if (count !== times) throw this.#failure(type, `Expected ${type.name} to be sent ${times} time(s), it was sent ${count}`)
  }

  /** Fails if a mail of that class was sent (one that `matching` accepts, when given). */
  assertNotSent<M extends Mailable<any>>(type: MailableClass<M>, matching?: Predicate<M>): void {
    if (this.#matching(type, matching).length) throw this.#failure(type, `Expected ${type.name} not to be sent${matching ? ' with a matching message' : ''}`)
  }

  /** Fails if any mail was sent. */
  assertNothingSent(): void {
    if (this.#sent.length) {
      throw new AssertionError({ message: `Expected no mail to be sent, got ${this.#sent.map(({ message }) => message.mailable).join(', ')}` })
    }
  }

  #matching<M extends Mailable<any>>(type: MailableClass<M>, matching: Predicate<M> | undefined): SentMail<M>[] {
    const sent = this.sent(type)
    return matching ? sent.filter(({ message, mail }) => matching(message, mail)) : sent
  }

  #failure<M extends Mailable<any>>(type: MailableClass<M>, message: string): AssertionError {
    const sent = this.sent(type).map(({ message }) => `${message.to.map(formatAddress).join(', ')} (${JSON.stringify(message.subject)})`)
    return new AssertionError({ message: sent.length ? `${message}; sent to: ${sent.join('; ')}` : message })
  }
}
