/** What a store counted for one key: the hits of the current window, and when it ends (milliseconds since 1970). */
export interface RateLimitCount {
  hits: number
  resetAt: number
}

/**
 * Where rate-limit counters live: shared by every process and machine of the application. Fw's default is the
 * application's database (`DatabaseRateLimitStore`); with `CACHE_STORE=redis`, Redis (`RedisRateLimitStore`). Another
 * store implements the same two methods and is given to `RateLimiter.useStore()`.
 */
export interface RateLimitStore {
  /**
   * Counts one hit on `key` and returns the count of its window, in one atomic step: hits at the same moment, from
   * any process, each count. A window that has ended starts again at 1, ending `decayMs` after `now`.
   */
  increment(key: string, decayMs: number, now: number): Promise<RateLimitCount>
  /** Forgets `key`'s count. */
  clear(key: string): Promise<void>
}
