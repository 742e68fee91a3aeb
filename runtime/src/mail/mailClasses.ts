import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { jobModules } from '../queue/jobModules.js'
import { MAILABLE_BRAND, type Mailable } from './Mailable.js'

/** A mail class, as a worker builds it again from its queued data. */
export type MailClass = new (data: any) => Mailable<any>

/** The mail classes this process knows, by name: those it sent, and those a worker loaded from App/Mail. */
const known = new Map<string, MailClass>()

/**
 * Keeps a mail class under its name, so that the job SendQueuedMail can build it again to ask `shouldSend()`: a mail
 * sent in this process (`fw serve`'s worker, `QUEUE_DRIVER=sync`, a test) needs no loading.
 */
export function rememberMailClass(type: MailClass): void {
  known.set(type.name, type)
}

/** The mail class of that name, when this process knows it. */
export function mailClassNamed(name: string): MailClass | undefined {
  return known.get(name)
}

/**
 * Imports every module under `folder` (the app's `App/Mail`, or `dist/App/Mail` once built) and remembers the mail
 * classes they export: what a worker of its own process (`fw queue:work`) needs to ask a mail's `shouldSend()`.
 *
 * @example
 * ```ts
 * await loadMailClasses(join(root, 'App/Mail'))
 * mailClassNamed('ResetPasswordMail')
 * ```
 */
export async function loadMailClasses(folder: string): Promise<void> {
  for (const file of jobModules(folder)) {
    const exports = (await import(pathToFileURL(join(folder, file)).href)) as Record<string, unknown>
    for (const value of Object.values(exports)) {
      if (typeof value === 'function' && (value as unknown as Record<symbol, unknown>)[MAILABLE_BRAND] === true) rememberMailClass(value as MailClass)
    }
  }
}
