import { createHmac, timingSafeEqual } from 'node:crypto'

/** The cookie that lets a browser through while the application is down, once it has visited `/<secret>`. */
export const BYPASS_COOKIE = 'fw_maintenance'

/** How long the bypass lasts: twelve hours, as Laravel's. */
export const BYPASS_SECONDS = 12 * 3600

/**
 * The bypass cookie's value: its expiry (seconds since 1970) and an HMAC of it keyed by the secret's hash, so that
 * it cannot be forged or stretched, and a new `fw down --secret` makes the old cookies worthless.
 */
export function bypassCookie(secretHash: string, now = Date.now()): string {
  const expires = Math.floor(now / 1000) + BYPASS_SECONDS
  return `${expires}.${sign(secretHash, expires)}`
}

/** Whether a cookie's value is a bypass for this secret that has not expired. */
export function isValidBypass(value: string | undefined, secretHash: string, now = Date.now()): boolean {
  const match = value === undefined ? null : /^(\d{1,12})\.([\w-]{43})$/.exec(value)
  if (match === null) return false
  const expires = Number(match[1])
  if (expires * 1000 <= now) return false
  return timingSafeEqual(Buffer.from(match[2]!), Buffer.from(sign(secretHash, expires)))
}

function sign(secretHash: string, expires: number): string {
  return createHmac('sha256', secretHash).update(`fw-maintenance|${expires}`).digest('base64url')
}
