import type { ChildProcess } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRedis } from '../../src/redis/redis.js'
import { redisReady } from '../../src/redis/redisReady.js'
import { createFwApp, listeningPort, startFw, stopProcesses, type FwApp } from '../support/fwApp.js'
import { startRedis, type TestRedis } from '../support/redis.js'

/** A built app (plain JavaScript in dist/, as `npm run build` leaves it) with one throttled route. */
const ENTRY = `import { Container, Router, loadEnv, start } from 'fw-runtime'

loadEnv()
const router = new Router(Container.getInstance())
router.get('/limited', () => ({ ok: true })).middleware('throttle:5,1')
await start(router)
`

let app: FwApp
let redis: TestRedis
const running: ChildProcess[] = []
beforeAll(async () => {
  redis = await startRedis()
  app = createFwApp()
  app.write('dist/public/index.js', ENTRY)
})
afterAll(async () => {
  await stopProcesses(running)
  app?.remove()
  await redis?.stop()
})

/** Starts `fw start --workers=2` in the app with its throttles on the test's Redis; resolves to its port. */
function startServer(): Promise<number> {
  const server = startFw(app.dir, ['start', '--workers=2'], { PORT: '0', CACHE_STORE: 'redis', REDIS_URL: redis.url, REDIS_TIMEOUT_MS: '300' })
  running.push(server.child)
  return listeningPort(server)
}

describe('throttle on Redis in a built app under two fw start --workers=2', () => {
  it('four processes share one count: of 40 requests at once against 5 a minute, 5 get through; Redis down is 503, then it counts again', async () => {
    const ports = await Promise.all([startServer(), startServer()])
    const answers = await Promise.all(Array.from({ length: 40 }, (_, index) => fetch(`http://127.0.0.1:${ports[index % 2]}/limited`)))
    const statuses = answers.map((response) => response.status)
    expect(statuses.filter((status) => status === 200)).toHaveLength(5)
    expect(statuses.filter((status) => status === 429)).toHaveLength(35)
    const refused = answers.find((response) => response.status === 429)!
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(55)

    const client = createRedis(redis.url)
    try {
      await redisReady(client)
      const keys = await client.keys('fw:ratelimit:*')
      expect(keys).toHaveLength(1)
      expect(await client.get(keys[0]!)).toBe('40')
    } finally {
      client.disconnect()
    }

    await redis.kill()
    const down = await Promise.all(ports.map((port) => fetch(`http://127.0.0.1:${port}/limited`)))
    expect(down.map((response) => response.status)).toEqual([503, 503])

    await redis.start()
    const deadline = Date.now() + 15_000
    let status = 503
    while (status === 503 && Date.now() < deadline) {
      status = (await fetch(`http://127.0.0.1:${ports[0]}/limited`)).status
      if (status === 503) await new Promise((resolve) => setTimeout(resolve, 200))
    }
    // The restarted Redis is empty: a new window, counted from 1.
    expect(status).toBe(200)
  }, 90_000)
})
