import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql, type Kysely } from 'kysely'
import type { Redis } from 'ioredis'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { CacheRepository, type CacheOptions } from '../../src/cache/CacheRepository.js'
import { LockTimeoutError } from '../../src/cache/LockTimeoutError.js'
import { createDatabase } from '../../src/database/createDatabase.js'
import { createRedis } from '../../src/redis/redis.js'
import { startPostgres, type TestPostgres } from '../support/postgres.js'
import { startRedis, type TestRedis } from '../support/redis.js'

// Starting PostgreSQL for a block can take more than the default 10 s on a busy machine.
vi.setConfig({ hookTimeout: 60_000 })

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Each store through its real parts: a SQLite file, a real PostgreSQL, a real Redis 7. `make()` gives a new
 * CacheRepository on the same store each time, with its own connection where the store has one, as another process
 * would have.
 */
const stores: { name: string; shared: boolean; setUp(): Promise<{ make(): CacheRepository; tearDown(): Promise<void> }> }[] = [
  {
    name: 'memory',
    shared: false,
    async setUp() {
      const cache = new CacheRepository({ store: 'memory', waitSeconds: 2 })
      return { make: () => cache, tearDown: async () => undefined }
    },
  },
  {
    name: 'database (SQLite)',
    shared: true,
    async setUp() {
      const folder = mkdtempSync(join(tmpdir(), 'fw-cache-'))
      const databases: Kysely<any>[] = []
      return {
        make: () => onDatabase(databases, `sqlite:${join(folder, 'database.sqlite')}`),
        async tearDown() {
          for (const database of databases) await database.destroy()
          rmSync(folder, { recursive: true, force: true })
        },
      }
    },
  },
  {
    name: 'database (PostgreSQL)',
    shared: true,
    async setUp() {
      const postgres: TestPostgres = await startPostgres()
      const databases: Kysely<any>[] = []
      return {
        make: () => onDatabase(databases, postgres.url),
        async tearDown() {
          for (const database of databases) await database.destroy()
          postgres.stop()
        },
      }
    },
  },
  {
    name: 'redis',
    shared: true,
    async setUp() {
      const server: TestRedis = await startRedis()
      const clients: Redis[] = []
      return {
        make() {
          const client = createRedis(server.url)
          clients.push(client)
          return new CacheRepository({ store: 'redis', redis: client, waitSeconds: 2 })
        },
        async tearDown() {
          for (const client of clients) client.disconnect()
          await server.stop()
        },
      }
    },
  },
]

function onDatabase(databases: Kysely<any>[], url: string): CacheRepository {
  const database = createDatabase(url)
  databases.push(database)
  const options: CacheOptions = { store: 'database', database: () => database, waitSeconds: 2 }
  return new CacheRepository(options)
}

describe.each(stores)('CacheRepository on $name', ({ setUp, shared }) => {
  let store: Awaited<ReturnType<(typeof stores)[number]['setUp']>>
  let cache: CacheRepository
  beforeAll(async () => {
    store = await setUp()
    cache = store.make()
  })
  afterAll(() => store.tearDown())
  beforeEach(() => cache.flush())

  it('puts, gets, has, forgets and pulls values; a miss gives the fallback', async () => {
    expect(await cache.get('missing')).toBeUndefined()
    expect(await cache.get('missing', 'fallback')).toBe('fallback')
    await cache.put('greeting', { text: 'hello', list: [1, 2] }, 60)
    expect(await cache.get('greeting')).toEqual({ text: 'hello', list: [1, 2] })
    expect(await cache.has('greeting')).toBe(true)
    expect(await cache.forget('greeting')).toBe(true)
    expect(await cache.has('greeting')).toBe(false)
    await cache.forever('kept', null)
    expect(await cache.has('kept')).toBe(true)
    expect(await cache.get('kept', 'fallback')).toBeNull()
    expect(await cache.pull('kept')).toBeNull()
    expect(await cache.has('kept')).toBe(false)
  })

  it('keeps Dates and bigints', async () => {
    const value = { at: new Date('2026-11-29T18:00:00.123Z'), id: 9_007_199_254_740_993n }
    await cache.put('typed', value, 60)
    const back = await cache.get<typeof value>('typed')
    expect(back?.at).toBeInstanceOf(Date)
    expect(back?.at.toISOString()).toBe('2026-11-29T18:00:00.123Z')
    expect(back?.id).toBe(9_007_199_254_740_993n)
    expect(await cache.remember('typed', 60, () => 'not called')).toEqual(value)
  })

  it('forgets a value once its seconds are over', async () => {
    await cache.put('brief', 'here', 0.3)
    expect(await cache.get('brief')).toBe('here')
    await sleep(450)
    expect(await cache.get('brief')).toBeUndefined()
    expect(await cache.has('brief')).toBe(false)
  })

  it('adds only when nothing is stored; increments and decrements, keeping the expiry', async () => {
    expect(await cache.add('once', 'first', 60)).toBe(true)
    expect(await cache.add('once', 'second', 60)).toBe(false)
    expect(await cache.get('once')).toBe('first')
    expect(await cache.increment('hits')).toBe(1)
    expect(await cache.increment('hits', 5)).toBe(6)
    expect(await cache.decrement('hits', 2)).toBe(4)
    expect(await cache.get('hits')).toBe(4)
    await cache.put('window', 10, 0.4)
    expect(await cache.increment('window')).toBe(11)
    await sleep(550)
    expect(await cache.get('window')).toBeUndefined()
    await cache.put('text', 'a', 60)
    await expect(cache.increment('text')).rejects.toThrow('cache().increment("text"): the value stored is not a number ("a")')
  })

  it('counts increments from many callers at once exactly', async () => {
    const others = shared ? [store.make(), store.make()] : [cache, cache]
    const results = await Promise.all([cache, ...others].flatMap((each) => Array.from({ length: 5 }, () => each.increment('together'))))
    expect(results.sort((a, b) => a - b)).toEqual(Array.from({ length: 15 }, (_, index) => index + 1))
  }, 30_000)

  it('gets and puts many; flush empties the cache', async () => {
    await cache.putMany({ a: 1, b: 'two' }, 60)
    expect(await cache.many(['a', 'b', 'c'])).toEqual({ a: 1, b: 'two', c: undefined })
    await cache.flush()
    expect(await cache.many(['a', 'b'])).toEqual({ a: undefined, b: undefined })
  })

  it('remember computes once, and once across two caches on the store (as two processes)', async () => {
    const other = shared ? store.make() : cache
    let calls = 0
    const compute = async () => {
      calls++
      await sleep(300)
      return { computed: calls }
    }
    const values = await Promise.all([cache.remember('slow', 60, compute), other.remember('slow', 60, compute), cache.remember('slow', 60, compute)])
    expect(calls).toBe(1)
    expect(values).toEqual([{ computed: 1 }, { computed: 1 }, { computed: 1 }])
    expect(await other.get('slow')).toEqual({ computed: 1 })
  })

  it('remember computes each of many keys once when three caches ask for all of them at once', async () => {
    const caches = shared ? [cache, store.make(), store.make()] : [cache, cache, cache]
    const computedKeys: string[] = []
    const keys = Array.from({ length: 20 }, (_, index) => `many:${index}`)
    await Promise.all(
      caches.flatMap((each) =>
        keys.map((key) =>
          each.remember(key, 60, async () => {
            computedKeys.push(key)
            await sleep(5)
            return key
          }),
        ),
      ),
    )
    expect(computedKeys.sort()).toEqual([...keys].sort())
  }, 30_000)

  it('remember passes on what compute threw, and stores nothing then', async () => {
    const failure = new Error('compute failed')
    await expect(cache.remember('failing', 60, () => Promise.reject(failure))).rejects.toBe(failure)
    expect(await cache.has('failing')).toBe(false)
  })

  it('a lock has one owner at a time; only its owner releases it', async () => {
    const other = shared ? store.make() : cache
    const first = cache.lock('reports', 10)
    const second = other.lock('reports', 10)
    expect(first.owner()).not.toBe(second.owner())
    expect(await first.get()).toBe(true)
    expect(await second.get()).toBe(false)
    expect(await second.run(() => 'ran')).toEqual({ acquired: false })
    expect(await second.release()).toBe(false)
    expect(await first.isLocked()).toBe(true)
    expect(await other.restoreLock('reports', first.owner()).release()).toBe(true)
    expect(await second.run(() => 'ran')).toEqual({ acquired: true, value: 'ran' })
    expect(await first.isLocked()).toBe(false)
    expect(await first.get()).toBe(true)
    await second.forceRelease()
    expect(await first.isLocked()).toBe(false)
  })

  it('an expired lock goes to the next owner; block waits for it, or fails with LockTimeoutError', async () => {
    const other = shared ? store.make() : cache
    expect(await cache.lock('brief', 0.3).get()).toBe(true)
    expect(await other.lock('brief', 10).get()).toBe(false)
    await sleep(400)
    const next = other.lock('brief', 10)
    expect(await next.get()).toBe(true)
    const started = Date.now()
    const error = await cache
      .lock('brief', 10)
      .block(0.5, () => 'never')
      .catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(LockTimeoutError)
    expect((error as LockTimeoutError).status).toBe(503)
    expect((error as Error).message).toBe('The lock "brief" was still held by another owner after waiting 0.5 s')
    expect(Date.now() - started).toBeGreaterThanOrEqual(500)
    setTimeout(() => void next.release(), 200)
    expect(await cache.lock('brief', 10).block(3, () => 'after the release')).toBe('after the release')
  })
})

describe('CacheRepository on a database', () => {
  it('keeps its values in fw_cache and its locks in fw_cache_locks, made on first use', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'fw-cache-'))
    const database = createDatabase(`sqlite:${join(folder, 'database.sqlite')}`)
    try {
      const cache = new CacheRepository({ store: 'database', database: () => database })
      await cache.put('k', 'v', 60)
      expect(await cache.lock('l', 60).get()).toBe(true)
      const { rows: values } = await sql<{ key: string; value: string; expires_at: number }>`select * from fw_cache`.execute(database)
      expect(values).toHaveLength(1)
      expect(values[0]!.key).toContain('k')
      expect(values[0]!.expires_at).toBeGreaterThan(Date.now() + 50_000)
      const { rows: locks } = await sql<{ key: string; owner: string }>`select key, owner from fw_cache_locks`.execute(database)
      expect(locks).toEqual([{ key: 'fw:lock:l', owner: expect.any(String) }])
    } finally {
      await database.destroy()
      rmSync(folder, { recursive: true, force: true })
    }
  })
})

describe('CacheRepository in memory', () => {
  it('keeps a value as it is, not as JSON: the object read is the one stored, its class and its expiry kept', async () => {
    class Point {
      constructor(readonly x: number) {}
    }
    const cache = new CacheRepository({ store: 'memory' })
    const value = { point: new Point(1), at: new Date(0) }
    await cache.put('shared', value, 60)
    const back = await cache.get<typeof value>('shared')
    expect(back).toBe(value)
    expect(back?.point).toBeInstanceOf(Point)
    expect(await cache.remember('shared', 60, () => 'not called')).toBe(value)
    const computed = { list: [1] }
    expect(await cache.remember('computed', 0.1, () => computed)).toBe(computed)
    await sleep(150)
    expect(await cache.has('computed')).toBe(false)
  })
})
