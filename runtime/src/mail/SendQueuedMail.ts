import { Job } from '../queue/Job.js'
import { deliver } from './deliver.js'
import type { QueuedMessage } from './MailMessage.js'

/**
 * Fw's own job that sends a mail `mail.to(…).send(…)` queued: its payload is the message, rendered in the process
 * that sent it, and it hands it to the mailer `MAIL_MAILER` names, with the settings of the worker's process (the
 * default sender too). Every worker knows it without the app listing it (see `loadJobs`). Its payload is stored
 * encrypted with APP_KEY (a mail often holds a reset or sign-in link). Five attempts, 10 s apart and doubling, ride out a mail server that is away for a few minutes; a permanent refusal (5xx) and missing or bad
 * mail settings fail it at once.
 *
 * @example
 * ```ts
 * await mail.to('ada@example.com').send(new WelcomeMail({ name: 'Ada' })) // queues SendQueuedMail
 * ```
 */
export class SendQueuedMail extends Job<QueuedMessage> {
  static override options = { attempts: 5, backoff: 10 }
  static override encrypted = true

  async handle(message: QueuedMessage): Promise<void> {
    await deliver(message)
  }
}
