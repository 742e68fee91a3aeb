import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRedis } from '../../src/redis/redis.js'
import { redisReady } from '../../src/redis/redisReady.js'
import { cleanEnv, createFwApp, FW, type FwApp } from '../support/fwApp.js'
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
  for (const child of running.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null) continue
    const exited = once(child, 'exit')
    child.kill('SIGTERM')
    const force = setTimeout(() => child.kill('SIGKILL'), 5_000)
    await exited
    clearTimeout(force)
  }
  app?.remove()
  await redis?.stop()
})

/** Starts `fw start --workers=2` in the app with its throttles on the test's Redis; resolves to its port. */
function startServer(): Promise<number> {
  const env = cleanEnv({ PORT: '0', CACHE_STORE: 'redis', REDIS_URL: redis.url, REDIS_TIMEOUT_MS: '300' })
  const child = spawn(process.execPath, [FW, 'start', '--workers=2'], { cwd: app.dir, env, stdio: ['ignore', 'pipe', 'pipe'] })
  running.push(child)
  let output = ''
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk
      const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output)
      if (match) resolve(Number(match[1]))
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.once('exit', (code) => reject(new Error(`fw start exited with ${code}: ${output}`)))
  })
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
