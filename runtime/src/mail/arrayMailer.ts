import type { MailMessage } from './MailMessage.js'

const kept: MailMessage[] = []

/** `MAIL_MAILER=array`, for tests: keeps each message in this process's memory, where `mail.sent()` reads them. */
export async function keepMail(message: MailMessage): Promise<void> {
  kept.push(message)
}

/** The messages the array mailer kept, oldest first. */
export function keptMail(): readonly MailMessage[] {
  return kept
}
