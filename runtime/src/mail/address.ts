import type { Address, MailAddress } from './MailMessage.js'

/**
 * The grammar of an email address Fw's mail sends to, as the source of a regular expression without anchors: the one
 * rule `isEmailAddress` checks and make:auth's bodies document as a JSON Schema `pattern`. Loose on purpose (the mail
 * server has the last word): one @, a dot in the domain, and none of the characters that would let the text say more
 * than one address or leave its header. Unicode letters pass, for internationalised addresses.
 */
export const EMAIL_ADDRESS_PATTERN = String.raw`[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+`
const EMAIL = new RegExp(`^${EMAIL_ADDRESS_PATTERN}$`)
/** `Ada Lovelace <ada@example.com>`, the name optionally in double quotes. */
const NAMED = /^(.*?)\s*<([^<>]*)>$/s
const LINE_BREAK = /[\r\n]/

/**
 * Checks an address and returns it as a message holds it. `field` names it in the error (`the to address`). Throws
 * a TypeError for a line break (CR or LF) anywhere in it, which would start a header of its own in the message,
 * and for an email that does not look like one.
 *
 * @example
 * ```ts
 * parseAddress('the to address', 'Ada Lovelace <ada@example.com>') // { name: 'Ada Lovelace', email: 'ada@example.com' }
 * parseAddress('the to address', 'ada@example.com\r\nBcc: eve@example.com') // throws
 * ```
 */
export function parseAddress(field: string, value: MailAddress): Address {
  const shown = JSON.stringify(value)
  const given = typeof value === 'string' ? splitNamed(value) : value
  if (typeof given !== 'object' || given === null || typeof given.email !== 'string' || (given.name !== undefined && typeof given.name !== 'string')) {
    throw new TypeError(`${field} must be text such as ada@example.com, or { name, email }; got ${shown}`)
  }
  if (LINE_BREAK.test(given.email) || LINE_BREAK.test(given.name ?? '')) {
    throw new TypeError(`${field} ${shown} holds a line break (CR or LF), which would start a header of its own: refused`)
  }
  const email = given.email.trim()
  if (!isEmailAddress(email)) throw new TypeError(`${field} ${shown} is not an email address: write ada@example.com, or Ada Lovelace <ada@example.com>`)
  const name = given.name?.trim()
  return name ? { name, email } : { email }
}

/**
 * Whether the text is an email address that Fw's mail sends to: the one grammar of an address, which make:auth's
 * validation (`validateRegistration`, `validateEmail`) uses too, so that an address it accepts is never refused by the
 * mailer after the account was written.
 *
 * @example
 * ```ts
 * isEmailAddress('ada@example.com') // true
 * isEmailAddress('ada<b>@example.com') // false
 * ```
 */
export function isEmailAddress(text: string): boolean {
  return EMAIL.test(text)
}

/** An address as a person reads it: `Ada Lovelace <ada@example.com>`, or the email alone. */
export function formatAddress(address: Address): string {
  return address.name ? `${address.name} <${address.email}>` : address.email
}

function splitNamed(text: string): { name?: string; email: string } {
  const named = NAMED.exec(text.trim())
  if (!named) return { email: text }
  return { name: named[1]!.replace(/^"(.*)"$/s, '$1'), email: named[2]! }
}
