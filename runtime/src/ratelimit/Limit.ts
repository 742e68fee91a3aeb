import type { HandlerResult } from '../http/Middleware.js'
import type { Request } from '../http/Request.js'

/** The headers of a throttled answer: `Retry-After`, `X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset`. */
export type RateLimitHeaders = Record<string, string>

/** What answers a request past its limit instead of the default 429: given the request and the 429's headers. */
export type LimitResponse = (request: Request, headers: RateLimitHeaders) => HandlerResult | Promise<HandlerResult>

/**
 * One rate limit: so many requests in a window of so many seconds, counted per key (`by`), as Laravel's
 * `Limit::perMinute(60)->by($request->user()?->id ?: $request->ip())`. The window is fixed: it starts at the first
 * request and ends `decaySeconds` later, whatever came between.
 *
 * @example
 * ```ts
 * RateLimiter.for('api', (request) => Limit.perMinute(60).by(userId(request) ?? request.ip()))
 * RateLimiter.for('uploads', (request) => [Limit.perMinute(10).by(request.ip()), Limit.perDay(500)])
 * RateLimiter.for('internal', (request) => (request.header('x-internal') ? Limit.none() : Limit.perMinute(30)))
 * ```
 */
export class Limit {
  /** What the requests are counted by (a user id, an address); '' counts every client together. */
  key = ''
  /** The custom answer past the limit, if any. */
  answer: LimitResponse | undefined

  private constructor(
    /** Requests allowed in one window; Infinity for `Limit.none()`. */
    readonly maxAttempts: number,
    /** The window, in seconds. */
    readonly decaySeconds: number,
  ) {}

  /** `maxAttempts` requests every `decaySeconds` seconds (default 1). */
  static perSecond(maxAttempts: number, decaySeconds = 1): Limit {
    return Limit.every(maxAttempts, decaySeconds, 1, 'perSecond')
  }

  /** `maxAttempts` requests every `decayMinutes` minutes (default 1). */
  static perMinute(maxAttempts: number, decayMinutes = 1): Limit {
    return Limit.every(maxAttempts, decayMinutes, 60, 'perMinute')
  }

  /** `maxAttempts` requests every `decayMinutes` minutes, in Laravel's order: `Limit.perMinutes(5, 100)`. */
  static perMinutes(decayMinutes: number, maxAttempts: number): Limit {
    return Limit.every(maxAttempts, decayMinutes, 60, 'perMinutes')
  }

  /** `maxAttempts` requests every `decayHours` hours (default 1). */
  static perHour(maxAttempts: number, decayHours = 1): Limit {
    return Limit.every(maxAttempts, decayHours, 3600, 'perHour')
  }

  /** `maxAttempts` requests every `decayDays` days (default 1). */
  static perDay(maxAttempts: number, decayDays = 1): Limit {
    return Limit.every(maxAttempts, decayDays, 86_400, 'perDay')
  }

  /** No limit: nothing is counted and no rate-limit header is sent (a trusted client, an admin). */
  static none(): Limit {
    return new Limit(Number.POSITIVE_INFINITY, 0)
  }

  /** `maxAttempts` every `window` units of `unitSeconds`, both checked; `name` is the factory's, for the message. */
  private static every(maxAttempts: number, window: number, unitSeconds: number, name: string): Limit {
    if (!Number.isInteger(maxAttempts) || maxAttempts < 1) {
      throw new TypeError(`Limit.${name}(): the number of requests is a whole number from 1, got ${String(maxAttempts)}`)
    }
    if (!Number.isFinite(window) || window <= 0) throw new TypeError(`Limit.${name}(): the window is a number above 0, got ${String(window)}`)
    return new Limit(maxAttempts, window * unitSeconds)
  }

  /** Whether this is `Limit.none()`. */
  get unlimited(): boolean {
    return this.maxAttempts === Number.POSITIVE_INFINITY
  }

  /** Counts the requests per `key` (a user's id, an address); null or undefined counts every client together. */
  by(key: string | number | null | undefined): this {
    this.key = key === null || key === undefined ? '' : String(key)
    return this
  }

  /**
   * Answers the requests past this limit with `callback`'s result instead of the default 429. The rate-limit headers
   * it does not set itself are added.
   *
   * @example
   * ```ts
   * Limit.perMinute(5).response(() => Response.json({ message: 'Slow down' }, 429))
   * ```
   */
  response(callback: LimitResponse): this {
    this.answer = callback
    return this
  }
}
