import type { SafeHtml } from '../view/html.js'
import type { MailAddress } from './MailMessage.js'

/** What marks a mail class for a worker that loads the app's mail, whichever copy of fw-runtime it came from. */
export const MAILABLE_BRAND = Symbol.for('fw.mailable')

/**
 * A mail of the application, as Laravel's Mailable: a class in `App/Mail` (`fw make:mail WelcomeMail`) built with
 * the data it shows, with a `subject`, an HTML body made with the `html` tag (every value escaped), and optionally a
 * plain text part, a `from` other than `MAIL_FROM` and a `replyTo`. The subject is a field (built from
 * `this.data` if need be) or a getter. `mail.to(…).send(mailable)` renders it and queues the result.
 *
 * @example
 * ```ts
 * export class WelcomeMail extends Mailable<{ name: string }> {
 *   subject = `Welcome, ${this.data.name}`
 *
 *   html(): SafeHtml {
 *     return html`<p>Hello ${this.data.name}, your account is ready.</p>`
 *   }
 *
 *   text(): string {
 *     return `Hello ${this.data.name}, your account is ready.`
 *   }
 * }
 *
 * await mail.to(user.email).send(new WelcomeMail({ name: user.name }))
 * ```
 */
export abstract class Mailable<Data = void> {
  static readonly [MAILABLE_BRAND] = true

  /** The sender, when not `MAIL_FROM`. */
  declare readonly from?: MailAddress
  /** Where replies go, when not to the sender. */
  declare readonly replyTo?: MailAddress
  /** The subject line: one line of text. */
  abstract readonly subject: string

  constructor(readonly data: Data) {}

  /** The HTML body: the `html` tag's result (or trusted markup as text). */
  abstract html(): SafeHtml | string

  /** The plain text part, for mail programs that show no HTML; without it the mail is HTML alone. */
  text?(): string

  /**
   * Asked again just before the mail is sent, in the worker (and by `sendNow()`): false, and the mail is not sent
   * (the job completes and the log says why). For a mail that may be out of date by then, or sent again by
   * `fw queue:retry`: a reset link that a later one replaced. The mail's `data` is queued with it to build the class
   * again in the worker, so it must be plain JSON; the queued payload is encrypted.
   *
   * @example
   * ```ts
   * override shouldSend(): Promise<boolean> {
   *   return passwordResetIsCurrent(this.data.reset)
   * }
   * ```
   */
  shouldSend?(): boolean | Promise<boolean>
}
