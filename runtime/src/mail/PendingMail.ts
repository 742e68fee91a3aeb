import { createLogger, type Logger } from '../log/Logger.js'
import { pendingJob } from '../queue/pendingJob.js'
import { queue } from '../queue/queue.js'
import type { DispatchOptions } from '../queue/types.js'
import { deliver } from './deliver.js'
import type { Mailable } from './Mailable.js'
import { parseAddress } from './address.js'
import { rememberMailClass, type MailClass } from './mailClasses.js'
import { defaultFrom } from './mailConfig.js'
import type { MailFake } from './MailFake.js'
import type { MailAddress, MailMessage, QueuedMessage } from './MailMessage.js'
import { renderMessage } from './renderMessage.js'
import { SendQueuedMail, skipped } from './SendQueuedMail.js'

let logger: Logger | undefined

/** How a queued mail's job is dispatched: its queue, delay, attempts and backoff (default 5 attempts, 10 s apart and doubling). */
export type SendOptions = Omit<DispatchOptions, 'uniqueKey'>

/**
 * A mail on its way: the recipients `mail.to()`, `cc()` and `bcc()` gathered, until `send()` queues it or `sendNow()`
 * sends it. Either renders the mail class at once, in this process, and checks it (addresses, subject), so that a
 * mistake in the code fails here rather than in a worker. The mailer's settings are read where the mail is delivered.
 *
 * @example
 * ```ts
 * await mail.to(user.email).cc('sales@example.com').send(new InvoiceMail({ invoiceId: 1 }))
 * ```
 */
export class PendingMail {
  readonly #to: MailAddress[] = []
  readonly #cc: MailAddress[] = []
  readonly #bcc: MailAddress[] = []

  constructor(private readonly fake: MailFake | undefined) {}

  /** Adds recipients: an address, `Name <address>`, `{ name, email }`, or a list of them. */
  to(addresses: MailAddress | readonly MailAddress[]): this {
    this.#to.push(...list(addresses))
    return this
  }

  /** Adds recipients in copy. */
  cc(addresses: MailAddress | readonly MailAddress[]): this {
    this.#cc.push(...list(addresses))
    return this
  }

  /** Adds recipients in blind copy: no other recipient sees them. */
  bcc(addresses: MailAddress | readonly MailAddress[]): this {
    this.#bcc.push(...list(addresses))
    return this
  }

  /**
   * Renders the mail and queues it (the job `SendQueuedMail`), so that a slow or stopped mail server never holds up
   * the caller: a worker sends it, or at once under `QUEUE_DRIVER=sync`. Inside `transaction()`, it is queued once
   * the transaction commits. Throws a TypeError for a bad address, subject or option: a mistake in the code. It reads
   * no mail setting: a request answers the same whether they are right or missing (no 500 that tells who has an
   * account), and a missing one fails the job when a worker delivers it, at once, with what to set (see
   * `fw queue:failed`). Past that, it never throws: a mail that cannot be queued (no APP_KEY to seal it with, the
   * database down), or under `QUEUE_DRIVER=sync` cannot be delivered, is logged, since the caller has mostly written
   * something already (an account, an order) that a 500 would report as failed. The job's payload is stored encrypted
   * with APP_KEY: a mail often holds a link that signs someone in. A mail class with `shouldSend()` is queued with its
   * data, and asked again by the worker before sending.
   */
  async send(mailable: Mailable<any>, options: SendOptions = {}): Promise<void> {
    const message = this.#render(mailable)
    if (this.fake) return this.fake.record(mailable, withDefaultFrom(message), true)
    if (mailable.shouldSend) {
      rememberMailClass(mailable.constructor as MailClass)
      message.shouldSend = { data: mailable.data ?? null }
    }
    pendingJob(SendQueuedMail, message, options) // a bad option is a mistake in the code: it throws here, as a bad address does
    try {
      await queue.dispatch(SendQueuedMail, message, options)
    } catch (error) {
      logger ??= createLogger()
      logger.error(`[fw] the mail ${message.mailable} could not be queued or sent; the caller goes on without it:`, error)
    }
  }

  /**
   * Renders the mail and sends it now, in this process, waiting for the mail server: for a command or a job, not a
   * request. Throws for a bad address or subject, and (an `UnrecoverableJobError`) for missing or bad mail settings.
   * A mail class whose `shouldSend()` says false is not sent (the log says so).
   */
  async sendNow(mailable: Mailable<any>): Promise<void> {
    const message = this.#render(mailable)
    if (this.fake) return this.fake.record(mailable, withDefaultFrom(message), false)
    if (mailable.shouldSend && !(await mailable.shouldSend())) return skipped(message)
    await deliver(message)
  }

  #render(mailable: Mailable<any>): QueuedMessage {
    return renderMessage(mailable, {
      from: mailable.from ?? null,
      replyTo: mailable.replyTo,
      to: this.#to,
      cc: this.#cc,
      bcc: this.#bcc,
    })
  }
}

/** For a fake, which sends nothing: the default sender, whatever the mailer (MAIL_FROM, or Fw's own). */
function withDefaultFrom(message: QueuedMessage): MailMessage {
  return { ...message, from: message.from ?? parseAddress(`${message.mailable}: the from address (MAIL_FROM)`, defaultFrom(undefined)) }
}

function list(addresses: MailAddress | readonly MailAddress[]): readonly MailAddress[] {
  return Array.isArray(addresses) ? addresses : [addresses as MailAddress]
}
