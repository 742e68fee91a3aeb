import { keepMail } from './arrayMailer.js'
import { logMail } from './logMailer.js'
import { mailConfig } from './mailConfig.js'
import type { MailMessage } from './MailMessage.js'
import { sendBySmtp } from './smtpMailer.js'

/**
 * Hands a rendered message to the mailer `MAIL_MAILER` names (`smtp`, `log`, `array`), in this process: what the job
 * `SendQueuedMail` does, and `sendNow()`. Throws what the mailer throws (see `sendBySmtp`).
 */
export async function deliver(message: MailMessage, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const config = mailConfig(env)
  if (config.mailer === 'smtp') return sendBySmtp(message, config)
  if (config.mailer === 'log') return logMail(message)
  return keepMail(message)
}
