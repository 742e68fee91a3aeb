import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { Container } from '../../src/container/Container.js'
import { checkHealth } from '../../src/health/checkHealth.js'
import { Response } from '../../src/http/Response.js'
import { closeRedis } from '../../src/redis/redis.js'
import { Router } from '../../src/routing/Router.js'
import type { RunningServer } from '../../src/server/listen.js'
import { serve } from '../../src/server/serve.js'
import { S3Disk } from '../../src/storage/S3Disk.js'
import { storage } from '../../src/storage/storage.js'
import { useNotesDatabase } from '../support/notesDatabase.js'
import { startRedis, type TestRedis } from '../support/redis.js'
import { startS3Server, withS3rverListFix, type S3Server } from '../support/s3Server.js'
import { listenOn } from '../support/servers.js'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Polls `checkHealth` until `done` holds, at most 10 s. */
async function until(done: (report: Awaited<ReturnType<typeof checkHealth>>) => boolean): Promise<Awaited<ReturnType<typeof checkHealth>>> {
  const deadline = Date.now() + 10_000
  for (;;) {
    const report = await checkHealth()
    if (done(report)) return report
    if (Date.now() > deadline) throw new Error(`the health check still says ${JSON.stringify(report)} after 10 s`)
    await sleep(100)
  }
}

describe('checkHealth', () => {
  useNotesDatabase('SQLite')
  let logged: ReturnType<typeof vi.spyOn>
  beforeAll(() => {
    logged = vi.spyOn(console, 'error').mockImplementation(() => undefined)
  })
  afterEach(() => {
    vi.unstubAllEnvs()
    storage.reset()
    logged.mockClear()
  })
  afterAll(() => logged.mockRestore())

  it('reports the database alone when the cache and the disk are not remote (database store, local disk)', async () => {
    for (const env of [{}, { CACHE_STORE: 'database', FILESYSTEM_DISK: 'local' }, { CACHE_STORE: 'memory' }]) {
      for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value)
      const report = await checkHealth()
      expect(Object.keys(report)).toEqual(['status', 'database', 'timestamp'])
      expect(report).toMatchObject({ status: 'healthy', database: 'up' })
      expect(report.timestamp).toBe(Math.floor(Date.now() / 1000))
    }
  })

  describe('with the cache on a real Redis', () => {
    let redis: TestRedis
    let server: RunningServer
    beforeAll(async () => {
      redis = await startRedis()
      const router = new Router(Container.getInstance())
      // What the api starter's HealthController answers.
      router.get('/health', async () => {
        const report = await checkHealth()
        return Response.json(report, report.status === 'healthy' ? 200 : 503)
      })
      server = await listenOn(serve, router)
    })
    beforeEach(() => {
      vi.stubEnv('CACHE_STORE', 'redis')
      vi.stubEnv('REDIS_URL', redis.url)
      vi.stubEnv('REDIS_TIMEOUT_MS', '300')
    })
    afterAll(async () => {
      await server?.close()
      closeRedis()
      await redis?.stop()
    })

    it('reports the cache up, then down with a 503 naming it while Redis is stopped, and up again once it is back', async () => {
      const up = await fetch(`${server.url}/health`)
      expect(up.status).toBe(200)
      expect(await up.json()).toMatchObject({ status: 'healthy', database: 'up', cache: 'up' })

      await redis.kill()
      const started = Date.now()
      const down = await fetch(`${server.url}/health`)
      expect(Date.now() - started).toBeLessThan(1000)
      expect(down.status).toBe(503)
      const body = (await down.json()) as Record<string, unknown>
      expect(Object.keys(body)).toEqual(['status', 'database', 'cache', 'timestamp'])
      expect(body).toMatchObject({ status: 'unhealthy', database: 'up', cache: 'down' })
      // Why is logged, not answered.
      expect(String(logged.mock.calls.at(-1)?.[0])).toMatch(/^\[health\] the cache \(Redis\) is down: /)

      await redis.start()
      expect(await until((report) => report.cache === 'up')).toMatchObject({ status: 'healthy', cache: 'up' })
    }, 20_000)

    it('reports the cache down within the deadline while Redis hangs', async () => {
      await until((report) => report.cache === 'up')
      redis.pause()
      try {
        const started = Date.now()
        expect(await checkHealth()).toMatchObject({ status: 'unhealthy', cache: 'down' })
        expect(Date.now() - started).toBeLessThan(2500)
      } finally {
        redis.resume()
      }
    }, 20_000)
  })

  describe('with the default disk on a real S3-compatible server (s3rver)', () => {
    let s3: S3Server
    beforeAll(async () => {
      s3 = await startS3Server()
    })
    afterAll(() => s3?.close().catch(() => undefined))
    beforeEach(() => {
      vi.stubEnv('FILESYSTEM_DISK', 's3')
      for (const [name, value] of Object.entries(s3.env)) vi.stubEnv(name, value)
    })
    /** The default disk, made from the environment as the app makes it, with the test server's signing quirk fixed. */
    const defaultDisk = (): S3Disk => {
      const disk = storage()
      expect(disk).toBeInstanceOf(S3Disk)
      withS3rverListFix((disk as S3Disk).client)
      return disk as S3Disk
    }

    it('reports the bucket up (HeadBucket), and a bucket that does not exist down, saying why in the log', async () => {
      defaultDisk()
      expect(await checkHealth()).toMatchObject({ status: 'healthy', database: 'up', storage: 'up' })
      storage.reset()
      vi.stubEnv('AWS_BUCKET', 'no-such-bucket')
      defaultDisk()
      expect(await checkHealth()).toMatchObject({ status: 'unhealthy', storage: 'down' })
      expect(String(logged.mock.calls.at(-1)?.[0])).toBe('[health] the s3 disk is down: The s3 disk\'s bucket "no-such-bucket" does not exist (AWS_BUCKET)')
    })

    it('reports a disk that cannot be made (no AWS_BUCKET) down', async () => {
      vi.stubEnv('AWS_BUCKET', '')
      expect(await checkHealth()).toMatchObject({ status: 'unhealthy', storage: 'down' })
      expect(String(logged.mock.calls.at(-1)?.[0])).toMatch(/^\[health\] the default disk is down: The s3 disk needs AWS_BUCKET/)
    })

    it('asks the bucket at most about once a second, and sees it gone after that', async () => {
      const ping = vi.spyOn(defaultDisk(), 'ping')
      await Promise.all(Array.from({ length: 5 }, () => checkHealth()))
      expect(await checkHealth()).toMatchObject({ storage: 'up' })
      expect(ping).toHaveBeenCalledTimes(1)

      await s3.close()
      expect(await checkHealth()).toMatchObject({ storage: 'up' }) // the answer of a moment ago
      await sleep(1100)
      const started = Date.now()
      expect(await checkHealth()).toMatchObject({ status: 'unhealthy', storage: 'down' })
      expect(Date.now() - started).toBeLessThan(2500)
      expect(ping).toHaveBeenCalledTimes(2)
    })
  })
})
