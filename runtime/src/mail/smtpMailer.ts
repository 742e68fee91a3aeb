import type { NodemailerError } from 'nodemailer'
import { createLogger } from '../log/Logger.js'
import { UnrecoverableJobError } from '../queue/UnrecoverableJobError.js'
import { formatAddress } from './address.js'
import type { MailConfig } from './mailConfig.js'
import type { Address, MailMessage } from './MailMessage.js'

type SmtpConfig = Extract<MailConfig, { mailer: 'smtp' }>

/**
 * `MAIL_MAILER=smtp`: sends the message through the server of `MAIL_URL`, with nodemailer (loaded here only, so
 * that an app that sends no mail never loads it). Connecting, the greeting and every silence of the socket are each
 * cut at `MAIL_TIMEOUT` (at most 10 s). A permanent refusal (a 5xx answer, nodemailer's `permanent`) throws an
 * `UnrecoverableJobError`, so that the job that sends it fails at once; anything else (refused connection, timeout,
 * a 4xx answer) throws an Error, and the job runs again after its backoff. Recipients the server refused while it
 * took the others are logged: sending again would repeat the mail to the others.
 */
export async function sendBySmtp(message: MailMessage, config: SmtpConfig): Promise<void> {
  const { createTransport } = await import('nodemailer')
  const transport = createTransport({ url: config.url, connectionTimeout: config.timeoutMs, greetingTimeout: config.timeoutMs, socketTimeout: config.timeoutMs })
  const what = `${message.mailable} to ${message.to.map(formatAddress).join(', ')}`
  try {
    const sent = await transport.sendMail({
      from: forNodemailer(message.from),
      replyTo: message.replyTo && forNodemailer(message.replyTo),
      to: message.to.map(forNodemailer),
      cc: message.cc.map(forNodemailer),
      bcc: message.bcc.map(forNodemailer),
      subject: message.subject,
      html: message.html,
      text: message.text,
    })
    if (sent.rejected.length > 0) {
      createLogger().error(`[fw] the mail server at ${config.host} refused some recipients of ${message.mailable}, and took the others: ${sent.rejected.join(', ')}`)
    }
  } catch (error) {
    const { code, permanent } = error as NodemailerError
    // nodemailer's message can be a bare "Timeout": its code (ETIMEDOUT, ESOCKET, EENVELOPE…) says which step failed.
    const reason = `${error instanceof Error ? error.message : String(error)}${code ? ` (${code})` : ''}`
    if (permanent === true) {
      throw new UnrecoverableJobError(`The mail server at ${config.host} refused ${what} for good: ${reason}`, { cause: error })
    }
    throw new Error(`Could not send ${what} through the mail server at ${config.host}: ${reason}`, { cause: error })
  } finally {
    transport.close()
  }
}

function forNodemailer(address: Address): { name: string; address: string } {
  return { name: address.name ?? '', address: address.email }
}
