import type { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRedis } from '../../src/redis/redis.js'
import { redisReady } from '../../src/redis/redisReady.js'
import { startRedis, type TestRedis } from '../support/redis.js'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** How long `work` took to settle, and how: a failure's message, or the value. */
async function timed(work: () => Promise<unknown>): Promise<{ ms: number; value?: unknown; error?: string }> {
  const started = Date.now()
  try {
    const value = await work()
    return { ms: Date.now() - started, value }
  } catch (error) {
    return { ms: Date.now() - started, error: (error as Error).message }
  }
}

/** Waits until `client` answers again (it reconnects on its own), at most 10 s. */
async function answersAgain(client: Redis): Promise<void> {
  const deadline = Date.now() + 10_000
  for (;;) {
    if ((await client.ping().catch(() => undefined)) === 'PONG') return
    if (Date.now() > deadline) throw new Error('the client did not reconnect within 10 s')
    await sleep(100)
  }
}

describe('createRedis', () => {
  let server: TestRedis
  let client: Redis
  beforeAll(async () => {
    server = await startRedis()
    client = createRedis(server.url, { REDIS_TIMEOUT_MS: '300', REDIS_CONNECT_TIMEOUT_MS: '500' })
    await redisReady(client)
  })
  afterAll(async () => {
    client?.disconnect()
    await server?.stop()
  })

  it('connects on its own and answers', async () => {
    expect(await client.set('k', 'v')).toBe('OK')
    expect(await client.get('k')).toBe('v')
  })

  it('fails a command within its deadline while Redis hangs (SIGSTOP), and answers again once it goes on', async () => {
    server.pause()
    try {
      const outcome = await timed(() => client.get('k'))
      expect(outcome.error).toBe('Command timed out')
      expect(outcome.ms).toBeGreaterThanOrEqual(250)
      expect(outcome.ms).toBeLessThan(1500)
    } finally {
      server.resume()
    }
    await answersAgain(client)
    expect(await client.get('k')).toBe('v')
  })

  it('fails at once while Redis is down, and reconnects, with the same client, once it is back on its port', async () => {
    await server.kill()
    await sleep(100)
    const outcome = await timed(() => client.get('k'))
    expect(outcome.error).toMatch(/Stream isn't writeable|Connection is closed|ECONNREFUSED/)
    expect(outcome.ms).toBeLessThan(500)
    await server.start()
    await answersAgain(client)
    // Without persistence, what Redis held is gone after a restart.
    expect(await client.get('k')).toBeNull()
  }, 20_000)

  it('rejects a timeout that is not a whole number of milliseconds', () => {
    expect(() => createRedis(server.url, { REDIS_TIMEOUT_MS: 'soon' })).toThrow('A Redis timeout must be a whole number of milliseconds above 0, not "soon"')
  })
})
