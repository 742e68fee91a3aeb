import { createHash } from 'node:crypto'
import { HttpError } from '../http/HttpError.js'
import { authDb } from './AuthTables.js'

export interface ThrottleRule {
  /** Attempts allowed in one window. */
  attempts: number
  /** The window, in milliseconds. */
  windowMs: number
}

const MINUTE = 60_000

/**
 * The sign-in and registration throttle, counted in the `login_attempts` table so that every process of the
 * application shares it. Each attempt is counted in one atomic statement BEFORE the password is hashed or
 * checked: of 25 wrong passwords sent at once, only the first 5 reach scrypt and the rest get 429.
 *
 * Two counts: per email and IP address (5 a minute; a successful sign-in clears it), and per IP address
 * across emails (`AUTH_IP_ATTEMPTS`, default 50 a minute, sign-ins and registrations together; a successful
 * sign-in gives its attempt back). Rows whose window is over are pruned as attempts come.
 *
 * @example
 * ```ts
 * const throttle = new LoginThrottle()
 * const keys = await throttle.hit(request.ip(), email)   // throws a 429 HttpError when over a limit
 * ...
 * await throttle.succeeded(keys)
 * ```
 */
export class LoginThrottle {
  readonly perEmail: ThrottleRule
  private readonly ipRule: ThrottleRule | undefined

  constructor(options: { perEmail?: ThrottleRule; perIp?: ThrottleRule } = {}) {
    this.perEmail = options.perEmail ?? { attempts: 5, windowMs: MINUTE }
    this.ipRule = options.perIp
  }

  /** The per-address rule: as given, else from `AUTH_IP_ATTEMPTS` when asked (.env may load after this module). */
  get perIp(): ThrottleRule {
    return this.ipRule ?? { attempts: Number(process.env.AUTH_IP_ATTEMPTS) || 50, windowMs: MINUTE }
  }

  /**
   * Counts one attempt from this address (and for this email, on a sign-in), then throws a 429 HttpError
   * with `Retry-After` when a limit is passed. Returns the keys to hand to `succeeded`.
   */
  async hit(ip: string, email?: string): Promise<ThrottleKeys> {
    const now = Date.now()
    // Housekeeping: rows whose window ended are worth nothing.
    await authDb().deleteFrom('login_attempts').where('reset_at', '<=', now).execute()
    const keys: ThrottleKeys = { ip: throttleKey(`ip|${ip}`), email: email === undefined ? undefined : throttleKey(`${email}|${ip}`) }
    const perIp = this.perIp
    const byIp = await countAttempt(keys.ip, perIp, now)
    if (byIp.attempts > perIp.attempts) throw tooManyAttempts(byIp.resetAt - now, 'login attempts')
    if (keys.email !== undefined) {
      const byEmail = await countAttempt(keys.email, this.perEmail, now)
      if (byEmail.attempts > this.perEmail.attempts) throw tooManyAttempts(byEmail.resetAt - now, 'login attempts')
    }
    return keys
  }

  /** After a successful sign-in: the email's failures are forgotten and the address gets its attempt back. */
  async succeeded(keys: ThrottleKeys): Promise<void> {
    if (keys.email !== undefined) await authDb().deleteFrom('login_attempts').where('key', '=', keys.email).execute()
    await authDb()
      .updateTable('login_attempts')
      .set((eb) => ({ attempts: eb('attempts', '-', 1) }))
      .where('key', '=', keys.ip)
      .where('attempts', '>', 0)
      .execute()
  }
}

/** What `LoginThrottle.hit` counted, as hashes: neither the email nor the address is stored as it is. */
export interface ThrottleKeys {
  ip: string
  email: string | undefined
}

/** The SHA-256 of what is counted, in hex: the key of its row in `login_attempts`. */
export function throttleKey(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}

/**
 * Counts one attempt under `key` in `login_attempts` and returns the count of its window: one statement, so that
 * attempts at the same moment, in any process, each count. A window that has ended starts again at 1.
 */
export async function countAttempt(key: string, rule: ThrottleRule, now: number): Promise<{ attempts: number; resetAt: number }> {
  const row = await authDb()
    .insertInto('login_attempts')
    .values({ key, attempts: 1, reset_at: now + rule.windowMs })
    .onConflict((conflict) =>
      conflict.column('key').doUpdateSet((eb) => {
        const expired = eb('login_attempts.reset_at', '<=', now)
        return {
          attempts: eb.case().when(expired).then(1).else(eb('login_attempts.attempts', '+', 1)).end(),
          reset_at: eb.case().when(expired).then(eb.ref('excluded.reset_at')).else(eb.ref('login_attempts.reset_at')).end(),
        }
      }),
    )
    .returning(['attempts', 'reset_at'])
    .executeTakeFirstOrThrow()
  return { attempts: Number(row.attempts), resetAt: Number(row.reset_at) }
}

/** The 429 HttpError for a count past its limit: `Too many <what>. Try again in N seconds.`, with `Retry-After`. */
export function tooManyAttempts(waitMs: number, what: string): HttpError {
  const wait = Math.max(1, Math.ceil(waitMs / 1000))
  return new HttpError(429, `Too many ${what}. Try again in ${wait} seconds.`, { headers: { 'Retry-After': String(wait) } })
}
