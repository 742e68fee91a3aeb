import type { Request } from '../http/Request.js'
import { DatabaseRateLimitStore } from './DatabaseRateLimitStore.js'
import type { Limit } from './Limit.js'
import type { RateLimitCount, RateLimitStore } from './RateLimitStore.js'
import { RedisRateLimitStore } from './RedisRateLimitStore.js'

/** What a named limiter gives for a request: one limit, or several that must all hold. */
export type LimiterCallback = (request: Request) => Limit | readonly Limit[] | Promise<Limit | readonly Limit[]>

/** The outcome of `RateLimiter.attempt`: whether the hit was within the limit, and the numbers for the headers. */
export interface RateLimitResult extends RateLimitCount {
  allowed: boolean
  /** Hits left in the window (0 once past it). */
  remaining: number
  /** Seconds until the window ends (at least 1). */
  retryAfter: number
}

/**
 * The application's rate limiters, as Laravel's `RateLimiter` facade: named limiters that routes use through the
 * `throttle` middleware (`.middleware('throttle:api')`), and counting by hand for what is not a route (a job, a mail
 * per user). Limiters are defined in `bootstrap/app.ts`; every counter lives in the store, the application's database
 * by default (Redis when `CACHE_STORE=redis`), so that every process and machine shares it.
 *
 * @example
 * ```ts
 * // bootstrap/app.ts
 * RateLimiter.for('api', (request) => Limit.perMinute(60).by((request.user as User | undefined)?.id ?? request.ip()))
 *
 * // by hand
 * const { allowed, retryAfter } = await RateLimiter.attempt(`digest:${user.id}`, 3, 3600)
 * if (!allowed) throw new HttpError(429, `Try again in ${retryAfter} seconds`)
 * ```
 */
export class RateLimiter {
  private static readonly limiters = new Map<string, LimiterCallback>()
  private static current: RateLimitStore | undefined

  /** Defines (or redefines) the limiter `name`: `throttle:name` and `throttle('name')` count by what it gives. */
  static for(name: string, callback: LimiterCallback): void {
    if (!/^[\w.-]+$/.test(name) || /^\d/.test(name)) {
      throw new TypeError(`RateLimiter.for("${name}"): name a limiter with letters, digits, _ . -, not starting with a digit (throttle:60,1 is a limit given inline)`)
    }
    if (typeof callback !== 'function') throw new TypeError(`RateLimiter.for("${name}"): the second argument is (request) => Limit`)
    RateLimiter.limiters.set(name, callback)
  }

  /** The limiter named `name`, or undefined. */
  static limiter(name: string): LimiterCallback | undefined {
    return RateLimiter.limiters.get(name)
  }

  /**
   * Where the counters live: the one `useStore` gave, else Redis when `CACHE_STORE=redis` (read on the first count,
   * after .env has loaded), else the application's database.
   */
  static get store(): RateLimitStore {
    return (RateLimiter.current ??= process.env.CACHE_STORE === 'redis' ? new RedisRateLimitStore() : new DatabaseRateLimitStore())
  }

  /** Counts in another store from now on; `undefined` goes back to the default (Redis or the database, as above). */
  static useStore(store: RateLimitStore | undefined): void {
    RateLimiter.current = store
  }

  /** Counts one hit on `key` in a window of `decaySeconds`, and says whether it was within `maxAttempts`. */
  static async attempt(key: string, maxAttempts: number, decaySeconds: number): Promise<RateLimitResult> {
    const now = Date.now()
    const count = await RateLimiter.store.increment(key, decaySeconds * 1000, now)
    return {
      ...count,
      allowed: count.hits <= maxAttempts,
      remaining: Math.max(0, maxAttempts - count.hits),
      retryAfter: Math.max(1, Math.ceil((count.resetAt - now) / 1000)),
    }
  }

  /** Forgets what was counted under `key` (after a successful sign-in, say). */
  static clear(key: string): Promise<void> {
    return RateLimiter.store.clear(key)
  }
}
