import { createLogger, type Logger } from '../log/Logger.js'
import { formatAddress } from './address.js'
import type { MailMessage } from './MailMessage.js'

/** How many messages the log mailer keeps for `/_fw/mail`. */
export const KEPT_MAIL = 50

/** A message the log mailer wrote, and when. */
export interface LoggedMail {
  readonly at: Date
  readonly message: MailMessage
}

const recent: LoggedMail[] = []
let logger: Logger | undefined

/**
 * `MAIL_MAILER=log`, the default outside production: writes the whole message (headers, text and HTML) to the log
 * instead of sending it, and keeps the last 50 in this process's memory for the page `/_fw/mail`.
 */
export async function logMail(message: MailMessage): Promise<void> {
  logger ??= createLogger()
  logger.info?.(describe(message), {})
  recent.unshift({ at: new Date(), message })
  if (recent.length > KEPT_MAIL) recent.pop()
}

/** The messages the log mailer wrote in this process, newest first (at most 50). */
export function recentMail(): readonly LoggedMail[] {
  return recent
}

function describe(message: MailMessage): string {
  const headers = [
    ['From', formatAddress(message.from)],
    ['Reply-To', message.replyTo && formatAddress(message.replyTo)],
    ['To', message.to.map(formatAddress).join(', ')],
    ['Cc', message.cc.map(formatAddress).join(', ')],
    ['Bcc', message.bcc.map(formatAddress).join(', ')],
    ['Subject', message.subject],
  ]
  return [
    `Mail ${message.mailable}, written to the log instead of sent (MAIL_MAILER=log):`,
    ...headers.filter(([, value]) => value).map(([name, value]) => `${name}: ${value}`),
    ...(message.text === undefined ? [] : ['--- text ---', message.text]),
    '--- html ---',
    message.html,
  ].join('\n')
}
