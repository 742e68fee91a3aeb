import { UnrecoverableJobError } from '../queue/UnrecoverableJobError.js'
import { parseAddress } from './address.js'
import { keepMail } from './arrayMailer.js'
import { logMail } from './logMailer.js'
import { defaultFrom, mailConfig, type MailConfig } from './mailConfig.js'
import type { Address, QueuedMessage } from './MailMessage.js'
import { sendBySmtp } from './smtpMailer.js'

/**
 * Hands a rendered message to the mailer `MAIL_MAILER` names (`smtp`, `log`, `array`), in this process: what the job
 * `SendQueuedMail` does, and `sendNow()`. The mailer's settings are read here, and the default sender given to a
 * message without one. A missing or bad setting throws an `UnrecoverableJobError` that says what to set: trying again
 * cannot help, so the job fails at once and `fw queue:failed` shows why. Otherwise throws what the mailer throws
 * (see `sendBySmtp`).
 */
export async function deliver(message: QueuedMessage, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const { config, from } = mailSettings(message, env)
  const sent = { ...message, from }
  if (config.mailer === 'smtp') return sendBySmtp(sent, config)
  if (config.mailer === 'log') return logMail(sent)
  return keepMail(sent)
}

function mailSettings(message: QueuedMessage, env: NodeJS.ProcessEnv): { config: MailConfig; from: Address } {
  try {
    const config = mailConfig(env)
    return { config, from: message.from ?? parseAddress(`${message.mailable}: the from address (MAIL_FROM)`, defaultFrom(config, env)) }
  } catch (error) {
    throw new UnrecoverableJobError((error as Error).message, { cause: error })
  }
}
