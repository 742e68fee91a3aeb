import { sql } from 'kysely'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { Container } from '../../src/container/Container.js'
import type { Middleware } from '../../src/http/Middleware.js'
import { docsOf } from '../../src/http/middlewareDocs.js'
import { Response } from '../../src/http/Response.js'
import { throttle } from '../../src/middleware/throttle.js'
import { Limit } from '../../src/ratelimit/Limit.js'
import { RateLimiter } from '../../src/ratelimit/RateLimiter.js'
import { closeRedis, redis } from '../../src/redis/redis.js'
import { Router } from '../../src/routing/Router.js'
import type { RunningServer } from '../../src/server/listen.js'
import { serve } from '../../src/server/serve.js'
import { serveNode } from '../../src/server/serveNode.js'
import { databases, useNotesDatabase } from '../support/notesDatabase.js'
import { startRedis, type TestRedis } from '../support/redis.js'
import { listenOn } from '../support/servers.js'

// Starting PostgreSQL for a block can take more than the default 10 s on a busy machine.
vi.setConfig({ hookTimeout: 60_000 })

/** Signs in the user named by the `X-User` header, as an auth middleware would. */
const signIn: Middleware = (request, next) => {
  const id = request.header('x-user')
  if (id !== null) request.user = { id: Number(id), name: `user ${id}`, email: `${id}@example.com` }
  return next()
}

/** What each route's handler saw: the requests that got through. */
const handled: string[] = []

function routes(router: Router): Router {
  router.use(signIn)
  router.get('/inline', () => {
    handled.push('inline')
    return { ok: true }
  }).middleware('throttle:3,1')
  router.get('/api/me', (request) => ({ user: (request.user as { id: number } | undefined)?.id ?? null })).middleware('throttle:api')
  router.get('/uploads', () => ({ ok: true })).middleware(throttle('uploads'))
  router.get('/polite', () => ({ ok: true })).middleware('throttle:polite')
  router.get('/burst', () => ({ ok: true })).middleware(throttle('burst'))
  router.get('/unthrottled', () => ({ ok: true }))
  return router
}

describe.each(databases)('throttle on $name, over a real socket', ({ name }) => {
  const store = useNotesDatabase(name)
  let server: RunningServer
  beforeAll(async () => {
    RateLimiter.for('api', (request) =>
      request.header('x-internal') === 'yes' ? Limit.none() : Limit.perMinute(4).by((request.user as { id: number } | undefined)?.id ?? request.ip()),
    )
    RateLimiter.for('uploads', (request) => [Limit.perMinute(5).by(request.ip()), Limit.perMinute(2).by(`${request.ip()}:${request.query('folder') ?? ''}`)])
    RateLimiter.for('polite', () => Limit.perMinute(1).response((_request, headers) => Response.json({ message: `Slow down: wait ${headers['Retry-After']} s` }, 429)))
    RateLimiter.for('burst', () => Limit.perSecond(2))
    server = await listenOn(name === 'SQLite' ? serve : serveNode, routes(new Router(Container.getInstance())))
  })
  afterAll(() => server.close())
  afterEach(async () => {
    handled.length = 0
    await sql`delete from fw_rate_limits`.execute(store.database())
  })

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${server.url}${path}`, { headers })

  it('throttle:3,1 sends X-RateLimit-Limit and -Remaining, then 429 with Retry-After and X-RateLimit-Reset; the handler does not run past it', async () => {
    for (const remaining of ['2', '1', '0']) {
      const response = await get('/inline')
      expect(response.status).toBe(200)
      expect(response.headers.get('x-ratelimit-limit')).toBe('3')
      expect(response.headers.get('x-ratelimit-remaining')).toBe(remaining)
      expect(response.headers.get('retry-after')).toBeNull()
    }
    const refused = await get('/inline')
    expect(refused.status).toBe(429)
    expect(await refused.json()).toEqual({ error: 'Too Many Requests' })
    const retryAfter = Number(refused.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThanOrEqual(58)
    expect(retryAfter).toBeLessThanOrEqual(60)
    const reset = Number(refused.headers.get('x-ratelimit-reset'))
    expect(Math.abs(reset - (Math.floor(Date.now() / 1000) + retryAfter))).toBeLessThanOrEqual(2)
    expect(refused.headers.get('x-ratelimit-limit')).toBe('3')
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0')
    expect(handled).toEqual(['inline', 'inline', 'inline'])
    // Counted in the database, per signed-in user: another user still gets through.
    expect((await get('/inline', { 'x-user': '7' })).status).toBe(200)
    const rows = (await sql<{ key: string; hits: number }>`select key, hits from fw_rate_limits order by hits`.execute(store.database())).rows
    expect(rows.map((row) => Number(row.hits))).toEqual([1, 4])
    expect(rows.every((row) => /^[0-9a-f]{64}$/.test(row.key))).toBe(true)
  })

  it('a named limiter counts by its key (the user, else the address); Limit.none() counts nothing and sends no header', async () => {
    for (let i = 0; i < 4; i++) expect((await get('/api/me', { 'x-user': '1' })).status).toBe(200)
    const refused = await get('/api/me', { 'x-user': '1' })
    expect(refused.status).toBe(429)
    expect(refused.headers.get('x-ratelimit-limit')).toBe('4')
    const other = await get('/api/me', { 'x-user': '2' })
    expect(other.status).toBe(200)
    expect(await other.json()).toEqual({ user: 2 })
    expect(other.headers.get('x-ratelimit-remaining')).toBe('3')
    expect((await get('/api/me')).headers.get('x-ratelimit-remaining')).toBe('3')

    for (let i = 0; i < 6; i++) {
      const internal = await get('/api/me', { 'x-user': '1', 'x-internal': 'yes' })
      expect(internal.status).toBe(200)
      expect(internal.headers.get('x-ratelimit-limit')).toBeNull()
    }
    expect((await get('/unthrottled')).headers.get('x-ratelimit-limit')).toBeNull()
  })

  it('several limits: every one counts, the headers are the tightest\'s, and the first one passed answers 429', async () => {
    const first = await get('/uploads?folder=a')
    expect([first.headers.get('x-ratelimit-limit'), first.headers.get('x-ratelimit-remaining')]).toEqual(['2', '1'])
    expect((await get('/uploads?folder=a')).headers.get('x-ratelimit-remaining')).toBe('0')
    const perFolder = await get('/uploads?folder=a')
    expect(perFolder.status).toBe(429)
    expect(perFolder.headers.get('x-ratelimit-limit')).toBe('2')
    // Another folder: the per-folder limit is fresh, the per-address one has counted 3 of 5 (the refused one too).
    const b = await get('/uploads?folder=b')
    expect(b.status).toBe(200)
    expect([b.headers.get('x-ratelimit-limit'), b.headers.get('x-ratelimit-remaining')]).toEqual(['2', '1'])
    expect((await get('/uploads?folder=c')).status).toBe(200)
    const perAddress = await get('/uploads?folder=d')
    expect(perAddress.status).toBe(429)
    expect(perAddress.headers.get('x-ratelimit-limit')).toBe('5')
  })

  it('a limit\'s own response answers past it, with the rate-limit headers it did not set', async () => {
    expect((await get('/polite')).status).toBe(200)
    const refused = await get('/polite')
    expect(refused.status).toBe(429)
    expect(await refused.json()).toEqual({ message: `Slow down: wait ${refused.headers.get('retry-after')} s` })
    expect(refused.headers.get('x-ratelimit-limit')).toBe('1')
    expect(refused.headers.get('x-ratelimit-reset')).toMatch(/^\d{10}$/)
  })

  it('a window that has ended starts again', async () => {
    // Aligned to the start of a second, so that three requests fall in one window of one second.
    await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000)))
    expect((await get('/burst')).status).toBe(200)
    expect((await get('/burst')).status).toBe(200)
    const refused = await get('/burst')
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe('1')
    await new Promise((resolve) => setTimeout(resolve, 1100))
    const again = await get('/burst')
    expect(again.status).toBe(200)
    expect(again.headers.get('x-ratelimit-remaining')).toBe('1')
  })

  it('counts requests that arrive at once exactly: of 40 sent together against 3 a minute, 3 get through', async () => {
    const answers = await Promise.all(Array.from({ length: 40 }, () => get('/inline')))
    const statuses = answers.map((response) => response.status)
    expect(statuses.filter((status) => status === 200)).toHaveLength(3)
    expect(statuses.filter((status) => status === 429)).toHaveLength(37)
    expect(handled).toHaveLength(3)
    const { rows } = await sql<{ hits: number }>`select hits from fw_rate_limits`.execute(store.database())
    expect(rows.map((row) => Number(row.hits))).toEqual([40])
  })
})

describe('throttle on Redis (CACHE_STORE=redis), over a real socket', () => {
  let redisServer: TestRedis
  let server: RunningServer
  beforeAll(async () => {
    redisServer = await startRedis()
    vi.stubEnv('CACHE_STORE', 'redis')
    vi.stubEnv('REDIS_URL', redisServer.url)
    vi.stubEnv('REDIS_TIMEOUT_MS', '300')
    RateLimiter.useStore(undefined)
    RateLimiter.for('burst', () => Limit.perSecond(2))
    server = await listenOn(serve, routes(new Router(Container.getInstance())))
  })
  afterAll(async () => {
    await server?.close()
    closeRedis()
    await redisServer?.stop()
    vi.unstubAllEnvs()
    RateLimiter.useStore(undefined)
  })
  afterEach(async () => {
    handled.length = 0
    await redis().flushdb().catch(() => undefined)
  })

  const get = (path: string) => fetch(`${server.url}${path}`)

  it('counts on Redis: 429 with Retry-After past the limit, and of 50 requests sent together against 3 a minute, 3 get through', async () => {
    const answers = await Promise.all(Array.from({ length: 50 }, () => get('/inline')))
    const statuses = answers.map((response) => response.status)
    expect(statuses.filter((status) => status === 200)).toHaveLength(3)
    expect(statuses.filter((status) => status === 429)).toHaveLength(47)
    expect(handled).toHaveLength(3)
    const refused = answers.find((response) => response.status === 429)!
    expect(await refused.json()).toEqual({ error: 'Too Many Requests' })
    const retryAfter = Number(refused.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThanOrEqual(58)
    expect(retryAfter).toBeLessThanOrEqual(60)
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0')
    // The count is Redis's, not this process's nor the database's.
    const [key] = await redis().keys('fw:ratelimit:*')
    expect(await redis().get(key!)).toBe('50')
  })

  it('a window that has ended starts again', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000)))
    expect((await get('/burst')).status).toBe(200)
    expect((await get('/burst')).status).toBe(200)
    const refused = await get('/burst')
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe('1')
    await new Promise((resolve) => setTimeout(resolve, 1100))
    const again = await get('/burst')
    expect(again.status).toBe(200)
    expect(again.headers.get('x-ratelimit-remaining')).toBe('1')
  })

  it('answers 503 at once while Redis is down (the handler does not run), and counts again once it is back', async () => {
    expect((await get('/inline')).status).toBe(200)
    await redisServer.kill()
    const started = Date.now()
    const down = await get('/inline')
    expect(down.status).toBe(503)
    expect(await down.json()).toEqual({ error: 'Service Unavailable' })
    expect(Date.now() - started).toBeLessThan(1000)
    expect(handled).toHaveLength(1)
    // Unthrottled routes do not need Redis.
    expect((await get('/unthrottled')).status).toBe(200)

    await redisServer.start()
    const deadline = Date.now() + 10_000
    let status = 503
    while (status === 503 && Date.now() < deadline) {
      status = (await get('/inline')).status
      if (status === 503) await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect(status).toBe(200)
  }, 20_000)

  it('answers 503 within the deadline while Redis hangs, not a hang', async () => {
    await get('/inline') // connected
    redisServer.pause()
    try {
      const started = Date.now()
      const hung = await get('/inline')
      expect(hung.status).toBe(503)
      expect(Date.now() - started).toBeLessThan(1500)
    } finally {
      redisServer.resume()
    }
  })
})

describe('throttle, set up wrong', () => {
  it('names an undefined limiter and a malformed inline limit when the routes compile, at startup', () => {
    const router = new Router(new Container())
    router.get('/a', () => ({})).middleware('throttle:nowhere')
    expect(() => router.commit()).toThrow(
      "Rate limiter \"nowhere\" is not defined: define it in bootstrap/app.ts, RateLimiter.for('nowhere', (request) => Limit.perMinute(60).by(request.ip()))",
    )
    const inline = new Router(new Container())
    inline.get('/b', () => ({})).middleware('throttle:60,0')
    expect(() => inline.commit()).toThrow('throttle:60,0: use throttle:<requests>,<minutes> (throttle:60,1) or a limiter\'s name (throttle:api)')
    expect(() => throttle(0)).toThrow('throttle:0: use throttle:<requests>,<minutes>')
  })

  it('an alias registered under a throttle:… name is the app\'s own', async () => {
    const router = new Router(new Container())
    router.aliasMiddleware('throttle:custom', (_request, next) => next())
    router.get('/c', () => ({ ok: true })).middleware('throttle:custom')
    router.commit()
    const server = await listenOn(serve, router)
    try {
      const response = await fetch(`${server.url}/c`)
      expect(response.status).toBe(200)
      expect(response.headers.get('x-ratelimit-limit')).toBeNull()
    } finally {
      await server.close()
    }
  })

  it('declares its 429 with Retry-After for the OpenAPI document, named and inline', () => {
    RateLimiter.for('documented', () => Limit.perMinute(1))
    for (const middleware of [throttle('documented'), throttle(60, 1)]) {
      expect(docsOf(middleware)?.responses?.[429]).toMatchObject({
        description: 'Too many requests: past the rate limit',
        headers: { 'Retry-After': 'Seconds to wait before trying again' },
      })
    }
  })
})
