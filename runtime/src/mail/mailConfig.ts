import { isProduction } from '../config/environment.js'
import type { MailAddress } from './MailMessage.js'

/** The mailers `MAIL_MAILER` names. */
export const MAILERS = ['smtp', 'log', 'array'] as const

/** The address of a mail that names no sender, under the log and array mailers when `MAIL_FROM` is unset (Laravel's). */
export const DEFAULT_FROM_EMAIL = 'hello@example.com'

/** Each SMTP timeout's ceiling, in seconds: a mail server that hangs holds a worker's slot no longer than this. */
const MAX_TIMEOUT = 10

const URL_TIMEOUTS = ['connectionTimeout', 'greetingTimeout', 'socketTimeout']

/** The mailer `MAIL_MAILER` names and its settings, checked. */
export type MailConfig =
  | { readonly mailer: 'smtp'; readonly url: string; readonly host: string; readonly timeoutMs: number }
  | { readonly mailer: 'log' | 'array' }

/**
 * Reads `MAIL_MAILER` and its settings: `smtp` (with `MAIL_URL`, and `MAIL_TIMEOUT` in seconds, at most and by
 * default 10), `log` (the default outside production) or `array`. Throws an Error saying what to set: for an unknown
 * mailer, a missing or malformed `MAIL_URL`, a bad `MAIL_TIMEOUT`, and in production when `MAIL_MAILER` is unset,
 * since mail written to the log there would be lost without a word.
 *
 * @example
 * ```ts
 * mailConfig({ MAIL_MAILER: 'smtp', MAIL_URL: 'smtp://user:pass@smtp.example.com:587' })
 * // { mailer: 'smtp', url: '…', host: 'smtp.example.com:587', timeoutMs: 10000 }
 * ```
 */
export function mailConfig(env: NodeJS.ProcessEnv = process.env): MailConfig {
  const mailer = env.MAIL_MAILER || undefined
  if (mailer === undefined) {
    if (isProduction(env)) {
      throw new Error('MAIL_MAILER is not set, and in production Fw will not write mail to the log instead of sending it: set MAIL_MAILER=smtp and MAIL_URL=smtp://user:pass@host:port')
    }
    return { mailer: 'log' }
  }
  if (mailer === 'log' || mailer === 'array') return { mailer }
  if (mailer !== 'smtp') throw new Error(`MAIL_MAILER=${mailer} is not a mailer of Fw; it has: ${MAILERS.join(', ')}`)
  const { url, host } = smtpUrl(env.MAIL_URL)
  return { mailer, url, host, timeoutMs: timeoutSeconds(env.MAIL_TIMEOUT) * 1000 }
}

/**
 * The sender of a mail whose class names none: `MAIL_FROM`; unset, `hello@example.com` named after the app
 * (`APP_NAME`, else Fw) for the log and array mailers and a fake (`config` undefined), and an Error for SMTP, where
 * real mail would leave with a made-up sender.
 *
 * @example
 * ```ts
 * defaultFrom({ mailer: 'log' }, { APP_NAME: 'Acme' }) // { name: 'Acme', email: 'hello@example.com' }
 * ```
 */
export function defaultFrom(config: MailConfig | undefined, env: NodeJS.ProcessEnv = process.env): MailAddress {
  if (env.MAIL_FROM) return env.MAIL_FROM
  if (config?.mailer === 'smtp') {
    throw new Error('MAIL_FROM is not set: set it to the address your mail comes from, e.g. MAIL_FROM="Acme <hello@acme.com>" (or give the mail class a from)')
  }
  // As a name and an email, not `${APP_NAME} <…>`: an app name with < or quotes in it stays the name.
  return { name: env.APP_NAME?.trim() || 'Fw', email: DEFAULT_FROM_EMAIL }
}

/** `MAIL_URL` checked: an smtp:// or smtps:// URL with a host, and no timeout of its own. Errors never show it (it holds the password). */
function smtpUrl(url: string | undefined): { url: string; host: string } {
  const form = 'smtp://user:pass@host:port (smtps:// for TLS from the first byte; user and pass URL-encoded)'
  if (!url) throw new Error(`MAIL_MAILER=smtp needs MAIL_URL: set MAIL_URL=${form}`)
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new Error(`MAIL_URL is not a URL: write it as ${form}`)
  }
  if ((parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') || !parsed.hostname) {
    throw new Error(`MAIL_URL must be ${form}; it is a ${parsed.protocol} URL${parsed.hostname ? '' : ' without a host'}`)
  }
  const timeout = URL_TIMEOUTS.find((name) => parsed.searchParams.has(name))
  if (timeout) throw new Error(`MAIL_URL sets ${timeout}: Fw keeps each SMTP timeout at ${MAX_TIMEOUT} s at most; set MAIL_TIMEOUT (seconds) instead`)
  return { url, host: parsed.host }
}

function timeoutSeconds(value: string | undefined): number {
  if (value === undefined || value === '') return MAX_TIMEOUT
  const seconds = Number(value)
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > MAX_TIMEOUT) {
    throw new Error(`MAIL_TIMEOUT=${value} is not a number of seconds above 0 and at most ${MAX_TIMEOUT} (the default)`)
  }
  return seconds
}
