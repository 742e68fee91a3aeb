// fw-runtime/mail: mail classes, sent through the mailer `MAIL_MAILER` names, or recorded by a fake in tests.
export { isEmailAddress } from './mail/address.js'
export { Mailable } from './mail/Mailable.js'
export { mail } from './mail/mail.js'
export { MailFake, type SentMail } from './mail/MailFake.js'
export type { Address, MailAddress, MailMessage } from './mail/MailMessage.js'
export { PendingMail, type SendOptions } from './mail/PendingMail.js'
