import { createHash } from 'node:crypto'
import type { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { CacheUnavailableError } from '../../src/cache/CacheUnavailableError.js'
import { RateLimiter } from '../../src/ratelimit/RateLimiter.js'
import { RedisRateLimitStore } from '../../src/ratelimit/RedisRateLimitStore.js'
import { DatabaseRateLimitStore } from '../../src/ratelimit/DatabaseRateLimitStore.js'
import { createRedis } from '../../src/redis/redis.js'
import { redisReady } from '../../src/redis/redisReady.js'
import { startRedis, type TestRedis } from '../support/redis.js'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** How long `work` took to settle, and what it threw. */
async function failure(work: () => Promise<unknown>): Promise<{ ms: number; error: unknown }> {
  const started = Date.now()
  try {
    await work()
  } catch (error) {
    return { ms: Date.now() - started, error }
  }
  throw new Error('expected the call to fail')
}

describe('RedisRateLimitStore on a real Redis', () => {
  let server: TestRedis
  const clients: Redis[] = []
  /** A client of its own, as another process would have, with short deadlines. */
  const client = () => {
    const made = createRedis(server.url, { REDIS_TIMEOUT_MS: '300', REDIS_CONNECT_TIMEOUT_MS: '500' })
    clients.push(made)
    return made
  }
  beforeAll(async () => {
    server = await startRedis()
  })
  afterAll(async () => {
    for (const made of clients) made.disconnect()
    await server?.stop()
  })

  it('counts a window, keeps its end, clears a key, and stores the key hashed with its expiry', async () => {
    const redis = client()
    const store = new RedisRateLimitStore(() => redis)
    const now = Date.now()
    const first = await store.increment('api|1|10.0.0.1', 60_000, now)
    expect(first.hits).toBe(1)
    expect(first.resetAt - now).toBeGreaterThan(59_000)
    expect(first.resetAt - now).toBeLessThanOrEqual(60_000)
    const second = await store.increment('api|1|10.0.0.1', 60_000, now)
    expect(second.hits).toBe(2)
    // The window's end is the first hit's, not pushed back by the second.
    expect(second.resetAt).toBeLessThanOrEqual(first.resetAt)
    const key = `fw:ratelimit:${createHash('sha256').update('api|1|10.0.0.1').digest('hex')}`
    expect(await redis.keys('fw:ratelimit:*')).toEqual([key])
    expect(await redis.get(key)).toBe('2')
    expect(await redis.pttl(key)).toBeGreaterThan(59_000)
    await store.clear('api|1|10.0.0.1')
    expect((await store.increment('api|1|10.0.0.1', 60_000, Date.now())).hits).toBe(1)
  })

  it('starts again once the window has ended (Redis expires the key on its own clock)', async () => {
    const redis = client()
    const store = new RedisRateLimitStore(() => redis)
    expect((await store.increment('brief', 300, Date.now())).hits).toBe(1)
    expect((await store.increment('brief', 300, Date.now())).hits).toBe(2)
    await sleep(400)
    const now = Date.now()
    const fresh = await store.increment('brief', 300, now)
    expect(fresh.hits).toBe(1)
    expect(fresh.resetAt - now).toBeGreaterThan(200)
    expect(fresh.resetAt - now).toBeLessThanOrEqual(300)
  })

  it('gives a counter left without an expiry one, so that it cannot refuse its client forever', async () => {
    const redis = client()
    const key = `fw:ratelimit:${createHash('sha256').update('orphan').digest('hex')}`
    await redisReady(redis)
    await redis.set(key, '7')
    const now = Date.now()
    const count = await new RedisRateLimitStore(() => redis).increment('orphan', 5000, now)
    expect(count).toEqual({ hits: 8, resetAt: now + 5000 })
    expect(await redis.pttl(key)).toBeGreaterThan(4000)
  })

  it('counts 50 hits sent at once from two connections exactly: each count 1..50 once', async () => {
    const [one, two] = [client(), client()]
    await Promise.all([redisReady(one), redisReady(two)])
    const stores = [new RedisRateLimitStore(() => one), new RedisRateLimitStore(() => two)]
    const now = Date.now()
    const counts = await Promise.all(Array.from({ length: 50 }, (_, index) => stores[index % 2]!.increment('race', 60_000, now)))
    expect(counts.map((count) => count.hits).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, index) => index + 1))
  })

  it('fails fast with a 503 while Redis hangs or is down, never a free pass, and counts again once it is back', async () => {
    const redis = client()
    const store = new RedisRateLimitStore(() => redis)
    await redisReady(redis)
    expect((await store.increment('outage', 60_000, Date.now())).hits).toBe(1)

    server.pause()
    try {
      const hung = await failure(() => store.increment('outage', 60_000, Date.now()))
      expect(hung.error).toBeInstanceOf(CacheUnavailableError)
      expect((hung.error as CacheUnavailableError).status).toBe(503)
      expect(((hung.error as CacheUnavailableError).cause as Error).message).toBe('Command timed out')
      expect(hung.ms).toBeLessThan(1500)
    } finally {
      server.resume()
    }

    await server.kill()
    await sleep(100)
    const down = await failure(() => store.increment('outage', 60_000, Date.now()))
    expect(down.error).toBeInstanceOf(CacheUnavailableError)
    expect(down.ms).toBeLessThan(500)
    const clearing = await failure(() => store.clear('outage'))
    expect(clearing.error).toBeInstanceOf(CacheUnavailableError)

    await server.start()
    const deadline = Date.now() + 10_000
    let counted: number | undefined
    while (counted === undefined) {
      counted = await store.increment('outage', 60_000, Date.now()).then((count) => count.hits, () => undefined)
      if (counted === undefined && Date.now() > deadline) throw new Error('the store did not count again within 10 s of Redis being back')
      if (counted === undefined) await sleep(100)
    }
    // Without persistence the restarted Redis is empty: the window starts again.
    expect(counted).toBe(1)
  }, 20_000)
})

describe('RateLimiter.store', () => {
  afterAll(() => {
    vi.unstubAllEnvs()
    RateLimiter.useStore(undefined)
  })

  it('is Redis when CACHE_STORE=redis, read on first use; the database otherwise (memory too: it is not shared)', () => {
    for (const [store, kind] of [['redis', RedisRateLimitStore], ['database', DatabaseRateLimitStore], ['memory', DatabaseRateLimitStore], ['', DatabaseRateLimitStore]] as const) {
      vi.stubEnv('CACHE_STORE', store)
      RateLimiter.useStore(undefined)
      expect(RateLimiter.store).toBeInstanceOf(kind)
    }
  })
})
