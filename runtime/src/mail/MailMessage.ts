/**
 * An address as an application gives it: `'ada@example.com'`, `'Ada Lovelace <ada@example.com>'`, or
 * `{ name: 'Ada Lovelace', email: 'ada@example.com' }`.
 */
export type MailAddress = string | { readonly name?: string; readonly email: string }

/** An address as a message holds it, checked: no line break anywhere, and an email that looks like one. */
export interface Address {
  name?: string
  email: string
}

/**
 * A mail rendered for sending: plain JSON, so that it is the payload of the job that sends it (`SendQueuedMail`),
 * what a mailer receives, and what `mail.fake()` records.
 */
export interface MailMessage {
  /** The mail class's name: `WelcomeMail`. */
  mailable: string
  from: Address
  replyTo?: Address
  to: Address[]
  cc: Address[]
  bcc: Address[]
  subject: string
  html: string
  /** The plain text part, when the mail class has `text()`. */
  text?: string
}

/**
 * The payload of the job `SendQueuedMail`: a MailMessage whose `from` is null when the mail class names no sender. The
 * default sender (`MAIL_FROM`) is a mailer setting, read where the mail is delivered, never where it is queued: a
 * request that queues a mail then answers the same whatever the mail settings (see `deliver`).
 */
export interface QueuedMessage extends Omit<MailMessage, 'from'> {
  from: Address | null
  /** When the mail class has `shouldSend()`: its data, to build it again in the worker and ask before sending. */
  shouldSend?: { data: unknown }
}
