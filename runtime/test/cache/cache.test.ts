import { sql } from 'kysely'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { cache, createCache, resetCache } from '../../src/cache/cache.js'
import { closeRedis } from '../../src/redis/redis.js'
import { useNotesDatabase } from '../support/notesDatabase.js'
import { startRedis } from '../support/redis.js'

afterEach(() => {
  vi.unstubAllEnvs()
  resetCache()
})

describe('cache()', () => {
  const notes = useNotesDatabase('SQLite')

  it('is one cache for the process, on the application database by default', async () => {
    expect(cache()).toBe(cache())
    expect(cache().store).toBe('database')
    await cache().put('k', 'v', 60)
    const { rows } = await sql<{ value: string }>`select value from fw_cache`.execute(notes.database())
    expect(rows).toHaveLength(1)
    expect(await createCache('database').get('k')).toBe('v')
  })

  it('uses the store CACHE_STORE names, and says which are known', () => {
    vi.stubEnv('CACHE_STORE', 'memory')
    expect(cache().store).toBe('memory')
    resetCache()
    vi.stubEnv('CACHE_STORE', 'memcached')
    expect(() => cache()).toThrow('CACHE_STORE="memcached" is not a cache store: use database, redis or memory')
  })

  describe('on Redis', () => {
    afterAll(() => closeRedis())

    it('talks to the server REDIS_URL names, through the shared client', async () => {
      const server = await startRedis()
      try {
        vi.stubEnv('CACHE_STORE', 'redis')
        vi.stubEnv('REDIS_URL', server.url)
        await cache().put('k', { from: 'redis' }, 60)
        expect(await createCache('redis').get('k')).toEqual({ from: 'redis' })
      } finally {
        closeRedis()
        await server.stop()
      }
    })
  })
})
