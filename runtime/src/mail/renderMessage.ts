import { parseAddress } from './address.js'
import type { Mailable } from './Mailable.js'
import type { MailAddress, QueuedMessage } from './MailMessage.js'

/** Who a mail goes to and comes from, as `mail.to(…).cc(…)` and the mail class gave them. */
export interface Envelope {
  /** Null for the default sender, which the mailer's settings give when the mail is delivered. */
  readonly from: MailAddress | null
  readonly replyTo: MailAddress | undefined
  readonly to: readonly MailAddress[]
  readonly cc: readonly MailAddress[]
  readonly bcc: readonly MailAddress[]
}

const LINE_BREAK = /[\r\n]/

/**
 * Renders a mail class into the message that is queued and sent: its subject, HTML and text, every address checked
 * (see `parseAddress`); `from` stays null for the default sender. It reads no setting. Throws a TypeError that names the mail class and the field: for a subject that is not one
 * line of text, an address with a line break or that is not an email, no recipient, a body that is not text.
 */
export function renderMessage(mailable: Mailable<unknown>, envelope: Envelope): QueuedMessage {
  const name = mailable.constructor.name
  const wrong = (message: string) => new TypeError(`${name}: ${message}`)
  const addresses = (field: string, list: readonly MailAddress[]) => list.map((address) => parseAddress(`${name}: the ${field} address`, address))
  const { subject } = mailable
  if (typeof subject !== 'string' || subject.trim() === '') throw wrong(`subject must be text, got ${JSON.stringify(subject)} (set subject = '…' in the class)`)
  if (LINE_BREAK.test(subject)) throw wrong(`the subject ${JSON.stringify(subject)} holds a line break (CR or LF), which would start a header of its own: refused`)
  if (envelope.to.length === 0) throw wrong('the mail has no recipient: name one with mail.to(address)')
  const html = mailable.html() as unknown
  if (typeof html !== 'string' && !isSafeHtml(html)) throw wrong(`html() must return the html\`…\` tag's result or text, got ${describe(html)}`)
  const text = mailable.text?.() as unknown
  if (text !== undefined && typeof text !== 'string') throw wrong(`text() must return text, got ${describe(text)}`)
  return {
    mailable: name,
    from: envelope.from === null ? null : parseAddress(`${name}: the from address`, envelope.from),
    ...(envelope.replyTo === undefined ? {} : { replyTo: parseAddress(`${name}: the replyTo address`, envelope.replyTo) }),
    to: addresses('to', envelope.to),
    cc: addresses('cc', envelope.cc),
    bcc: addresses('bcc', envelope.bcc),
    subject,
    html: String(html),
    ...(text === undefined ? {} : { text }),
  }
}

/** A SafeHtml from any copy of fw-runtime: an object whose `value` is its markup. */
function isSafeHtml(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { value?: unknown }).value === 'string'
}

function describe(value: unknown): string {
  return value === null || typeof value !== 'object' ? String(value) : `a ${value.constructor?.name ?? 'object'}`
}
