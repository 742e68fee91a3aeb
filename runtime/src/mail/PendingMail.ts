import { queue } from '../queue/queue.js'
import type { DispatchOptions } from '../queue/types.js'
import { deliver } from './deliver.js'
import type { Mailable } from './Mailable.js'
import { defaultFrom, mailConfig } from './mailConfig.js'
import type { MailFake } from './MailFake.js'
import type { MailAddress, MailMessage } from './MailMessage.js'
import { renderMessage } from './renderMessage.js'
import { SendQueuedMail } from './SendQueuedMail.js'

/** How a queued mail's job is dispatched: its queue, delay, attempts and backoff (default 5 attempts, 10 s apart and doubling). */
export type SendOptions = Omit<DispatchOptions, 'uniqueKey'>

/**
 * A mail on its way: the recipients `mail.to()`, `cc()` and `bcc()` gathered, until `send()` queues it or `sendNow()`
 * sends it. Either renders the mail class at once, in this process, and checks it (addresses, subject, the mailer's
 * settings), so that a mistake fails here rather than in a worker.
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
   * the transaction commits. Throws a TypeError for a bad address or subject, an Error for missing mail settings.
   */
  async send(mailable: Mailable<any>, options: SendOptions = {}): Promise<void> {
    const message = this.#render(mailable)
    if (this.fake) return this.fake.record(mailable, message, true)
    await queue.dispatch(SendQueuedMail, message, options)
  }

  /** Renders the mail and sends it now, in this process, waiting for the mail server: for a command or a job, not a request. */
  async sendNow(mailable: Mailable<any>): Promise<void> {
    const message = this.#render(mailable)
    if (this.fake) return this.fake.record(mailable, message, false)
    await deliver(message)
  }

  #render(mailable: Mailable<any>): MailMessage {
    // A fake sends nothing, so the mailer's settings do not matter to it.
    const config = this.fake ? undefined : mailConfig()
    return renderMessage(mailable, {
      from: mailable.from ?? defaultFrom(config),
      replyTo: mailable.replyTo,
      to: this.#to,
      cc: this.#cc,
      bcc: this.#bcc,
    })
  }
}

function list(addresses: MailAddress | readonly MailAddress[]): readonly MailAddress[] {
  return Array.isArray(addresses) ? addresses : [addresses as MailAddress]
}
