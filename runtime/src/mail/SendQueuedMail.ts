import { createLogger, type Logger } from '../log/Logger.js'
import { Job } from '../queue/Job.js'
import { UnrecoverableJobError } from '../queue/UnrecoverableJobError.js'
import { deliver } from './deliver.js'
import { mailClassNamed } from './mailClasses.js'
import type { QueuedMessage } from './MailMessage.js'

let logger: Logger | undefined

/**
 * Fw's own job that sends a mail `mail.to(…).send(…)` queued: its payload is the message, rendered in the process
 * that sent it, and it hands it to the mailer `MAIL_MAILER` names, with the settings of the worker's process (the
 * default sender too). Every worker knows it without the app listing it (see `loadJobs`). Its payload is stored
 * encrypted with APP_KEY (a mail often holds a reset or sign-in link). When the mail class has `shouldSend()`, the
 * class is built again with its data and asked first: false, and the job completes without sending. Five attempts,
 * 10 s apart and doubling, ride out a mail server that is away for a few minutes; a permanent refusal (5xx) and
 * missing or bad mail settings fail it at once.
 *
 * @example
 * ```ts
 * await mail.to('ada@example.com').send(new WelcomeMail({ name: 'Ada' })) // queues SendQueuedMail
 * ```
 */
export class SendQueuedMail extends Job<QueuedMessage> {
  static override options = { attempts: 5, backoff: 10 }
  static override encrypted = true

  async handle({ shouldSend, ...message }: QueuedMessage): Promise<void> {
    if (shouldSend && !(await askShouldSend(message, shouldSend.data))) return skipped(message)
    await deliver(message)
  }
}

/** The one line a mail that `shouldSend()` held back leaves in the log. */
export function skipped(message: Pick<QueuedMessage, 'mailable' | 'subject'>): void {
  logger ??= createLogger()
  logger.info?.(`${message.mailable} not sent: its shouldSend() said false (out of date by the time it was to be sent)`, { subject: message.subject })
}

async function askShouldSend(message: QueuedMessage, data: unknown): Promise<boolean> {
  const type = mailClassNamed(message.mailable)
  if (!type) {
    throw new UnrecoverableJobError(`${message.mailable} has shouldSend(), and this worker has no mail class of that name in App/Mail to ask it: was it renamed or deleted?`)
  }
  return (await new type(data).shouldSend?.()) !== false
}
