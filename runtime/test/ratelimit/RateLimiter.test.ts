import { afterEach, describe, expect, it, vi } from 'vitest'
import { DatabaseRateLimitStore } from '../../src/ratelimit/DatabaseRateLimitStore.js'
import { Limit } from '../../src/ratelimit/Limit.js'
import { RateLimiter } from '../../src/ratelimit/RateLimiter.js'
import type { RateLimitStore } from '../../src/ratelimit/RateLimitStore.js'
import { databases, useNotesDatabase } from '../support/notesDatabase.js'

// Starting PostgreSQL for a block can take more than the default 10 s on a busy machine.
vi.setConfig({ hookTimeout: 60_000 })

/** A store that keeps its counts in a Map, as a cache store would keep them elsewhere: proof that the store can change. */
class MapStore implements RateLimitStore {
  readonly counts = new Map<string, { hits: number; resetAt: number }>()
  async increment(key: string, decayMs: number, now: number) {
    const current = this.counts.get(key)
    const next = current && current.resetAt > now ? { hits: current.hits + 1, resetAt: current.resetAt } : { hits: 1, resetAt: now + decayMs }
    this.counts.set(key, next)
    return next
  }
  async clear(key: string) {
    this.counts.delete(key)
  }
}

afterEach(() => RateLimiter.useStore(undefined))

describe('RateLimiter', () => {
  it('keeps named limiters, and refuses a name that would read as an inline limit', () => {
    const api = () => Limit.perMinute(60)
    RateLimiter.for('api-v2', api)
    expect(RateLimiter.limiter('api-v2')).toBe(api)
    expect(RateLimiter.limiter('missing')).toBeUndefined()
    expect(() => RateLimiter.for('60', api)).toThrow('RateLimiter.for("60"): name a limiter with letters, digits, _ . -, not starting with a digit')
    expect(() => RateLimiter.for('a b', api)).toThrow('RateLimiter.for("a b")')
  })

  it('counts in the store it is given, and goes back to the database one', async () => {
    const store = new MapStore()
    RateLimiter.useStore(store)
    expect(RateLimiter.store).toBe(store)
    expect(await RateLimiter.attempt('mail:1', 2, 60)).toMatchObject({ hits: 1, allowed: true, remaining: 1 })
    expect(await RateLimiter.attempt('mail:1', 2, 60)).toMatchObject({ hits: 2, allowed: true, remaining: 0 })
    const third = await RateLimiter.attempt('mail:1', 2, 60)
    expect(third).toMatchObject({ hits: 3, allowed: false, remaining: 0 })
    expect(third.retryAfter).toBeGreaterThanOrEqual(59)
    await RateLimiter.clear('mail:1')
    expect(store.counts.size).toBe(0)
    RateLimiter.useStore(undefined)
    expect(RateLimiter.store).toBeInstanceOf(DatabaseRateLimitStore)
  })
})

describe.each(databases)('RateLimiter by hand, on $name', ({ name }) => {
  useNotesDatabase(name)

  it('attempt counts in the application\'s database; clear forgets', async () => {
    expect(await RateLimiter.attempt('digest:1', 1, 3600)).toMatchObject({ hits: 1, allowed: true, remaining: 0 })
    const refused = await RateLimiter.attempt('digest:1', 1, 3600)
    expect(refused).toMatchObject({ hits: 2, allowed: false })
    expect(refused.retryAfter).toBeGreaterThan(3590)
    await RateLimiter.clear('digest:1')
    expect(await RateLimiter.attempt('digest:1', 1, 3600)).toMatchObject({ hits: 1, allowed: true })
  })
})
