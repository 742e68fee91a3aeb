import { Job } from '../queue/Job.js'
import { deliver } from './deliver.js'
import type { MailMessage } from './MailMessage.js'

/**
 * Fw's own job that sends a mail `mail.to(…).send(…)` queued: its payload is the message, rendered in the process
 * that sent it, and it hands it to the mailer `MAIL_MAILER` names. Every worker knows it without the app listing it
 * (see `loadJobs`). Five attempts, 10 s apart and doubling, ride out a mail server that is away for a few minutes;
 * a permanent refusal (5xx) fails it at once.
 *
 * @example
 * ```ts
 * await mail.to('ada@example.com').send(new WelcomeMail({ name: 'Ada' })) // queues SendQueuedMail
 * ```
 */
export class SendQueuedMail extends Job<MailMessage> {
  static override options = { attempts: 5, backoff: 10 }

  async handle(message: MailMessage): Promise<void> {
    await deliver(message)
  }
}
