import type { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CacheRepository } from '../../src/cache/CacheRepository.js'
import { CacheUnavailableError } from '../../src/cache/CacheUnavailableError.js'
import { Container } from '../../src/container/Container.js'
import { createRedis } from '../../src/redis/redis.js'
import { redisReady } from '../../src/redis/redisReady.js'
import { Router } from '../../src/routing/Router.js'
import type { RunningServer } from '../../src/server/listen.js'
import { listenOn, servers } from '../support/servers.js'
import { startRedis, type TestRedis } from '../support/redis.js'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** What `work` threw (or `undefined`), and how long it took to settle. */
async function failure(work: () => Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const started = Date.now()
  const error = await work().then(
    () => undefined,
    (caught: unknown) => caught,
  )
  return { error, ms: Date.now() - started }
}

/** Retries `work` until it succeeds (the client reconnects on its own), at most 10 s. */
async function eventually<T>(work: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 10_000
  for (;;) {
    try {
      return await work()
    } catch (error) {
      if (Date.now() > deadline) throw error
      await sleep(100)
    }
  }
}

describe('CacheRepository when Redis cannot answer', () => {
  let server: TestRedis
  let client: Redis
  let cache: CacheRepository
  beforeAll(async () => {
    server = await startRedis()
    client = createRedis(server.url, { REDIS_TIMEOUT_MS: '300', REDIS_CONNECT_TIMEOUT_MS: '500' })
    await redisReady(client)
    cache = new CacheRepository({ store: 'redis', redis: client, waitSeconds: 1 })
  })
  afterAll(async () => {
    client?.disconnect()
    await server?.stop()
  })

  it('fails each call within the deadline with CacheUnavailableError (503) while Redis hangs, and recovers on the same client', async () => {
    await cache.put('k', 'before', 60)
    server.pause()
    try {
      for (const call of [() => cache.get('k'), () => cache.put('k', 'during', 60), () => cache.remember('r', 60, () => 'computed'), () => cache.lock('l', 10).get()]) {
        const { error, ms } = await failure(call)
        expect(error).toBeInstanceOf(CacheUnavailableError)
        expect((error as CacheUnavailableError).status).toBe(503)
        expect((error as CacheUnavailableError).message).toBe('Service Unavailable')
        expect(((error as Error).cause as Error).message).toBe('Command timed out')
        expect(ms).toBeLessThan(1500)
      }
    } finally {
      server.resume()
    }
    // The put that timed out was already on its way: Redis applies it once it goes on. A timeout says "not known",
    // never "not done", as with any server over a network.
    expect(await eventually(() => cache.get('k'))).toBe('during')
    expect(await cache.remember('r', 60, () => 'computed')).toBe('computed')
  })

  it('fails at once while Redis is down, and recovers once it is back on its port; its locks went with it', async () => {
    const holder = cache.lock('nightly', 60)
    expect(await holder.get()).toBe(true)
    await server.kill()
    const { error, ms } = await failure(() => cache.get('k'))
    expect(error).toBeInstanceOf(CacheUnavailableError)
    expect(ms).toBeLessThan(1000)
    // Not granted to anyone while Redis is down.
    expect((await failure(() => cache.lock('nightly', 60).get())).error).toBeInstanceOf(CacheUnavailableError)
    await server.start()
    expect(await eventually(() => cache.get('k'))).toBeUndefined()
    // Redis without persistence forgets its keys when it restarts, the locks among them (as in Laravel).
    expect(await cache.lock('nightly', 60).get()).toBe(true)
    expect(await holder.release()).toBe(false)
  }, 20_000)

  it('answers 503 to a remember that waited past its deadline for another process computing the value', async () => {
    const otherClient = createRedis(server.url)
    const other = new CacheRepository({ store: 'redis', redis: otherClient, waitSeconds: 0.3 })
    const slow = cache.remember('slow', 60, async () => {
      await sleep(1000)
      return 'slow value'
    })
    await sleep(100)
    const { error, ms } = await failure(() => other.remember('slow', 60, () => 'not this one'))
    expect(error).toBeInstanceOf(CacheUnavailableError)
    expect(((error as Error).cause as Error).message).toBe('remember("slow") waited 300 ms for another process computing it')
    expect(ms).toBeLessThan(900)
    expect(await slow).toBe('slow value')
    expect(await other.remember('slow', 60, () => 'not this one')).toBe('slow value')
    otherClient.disconnect()
  })

  it('answers 503 to a remember that waited past its deadline for another call in the same process', async () => {
    const local = new CacheRepository({ store: 'memory', waitSeconds: 0.2 })
    const slow = local.remember('slow', 60, async () => {
      await sleep(600)
      return 'slow value'
    })
    await sleep(50)
    const { error, ms } = await failure(() => local.remember('slow', 60, () => 'not this one'))
    expect(error).toBeInstanceOf(CacheUnavailableError)
    expect(((error as Error).cause as Error).message).toBe("waited 200 ms for this process's other call computing the value")
    expect(ms).toBeLessThan(500)
    expect(await slow).toBe('slow value')
  })

  describe.each(servers)('over HTTP ($name)', ({ start }) => {
    let app: RunningServer
    beforeAll(async () => {
      const router = new Router(new Container())
      router.get('/cached', async () => ({ answer: await cache.remember('answer', 60, () => 42) }))
      app = await listenOn(start, router)
    })
    afterAll(() => app?.close())

    it('a route that uses the cache answers 503 while Redis is stopped, and 200 once it is back', async () => {
      expect(await (await fetch(`${app.url}/cached`)).json()).toEqual({ answer: 42 })
      await server.kill()
      try {
        const started = Date.now()
        const response = await fetch(`${app.url}/cached`)
        expect(response.status).toBe(503)
        expect(await response.json()).toEqual({ error: 'Service Unavailable' })
        expect(Date.now() - started).toBeLessThan(1000)
      } finally {
        await server.start()
      }
      const answer = await eventually(async () => {
        const response = await fetch(`${app.url}/cached`)
        if (response.status !== 200) throw new Error(`status ${response.status}`)
        return response.json()
      })
      expect(answer).toEqual({ answer: 42 })
    }, 20_000)
  })
})
