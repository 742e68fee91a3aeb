import { createHash } from 'node:crypto'
import type { Redis } from 'ioredis'
import { cacheUnavailable } from '../cache/CacheUnavailableError.js'
import { redisReady } from '../redis/redisReady.js'
import type { RateLimitCount, RateLimitStore } from './RateLimitStore.js'

/** Where the counters live in Redis, apart from the cache's values (`fw:cache:`) and locks (`fw:lock:`). */
const KEY_PREFIX = 'fw:ratelimit:'

/**
 * One hit, atomically: count it, start the window when the key is new, and give back the count and the milliseconds
 * left. A key left without an expiry (set by hand, or by a server that lost the PEXPIRE) gets one too: a counter that
 * never expires would refuse its client forever.
 */
const HIT = `
local hits = redis.call('INCRBY', KEYS[1], 1)
local left = redis.call('PTTL', KEYS[1])
if left < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  left = tonumber(ARGV[1])
end
return { hits, left }`

/** The shared client with the script defined on it (ioredis sends it by its SHA, and once in full when Redis lacks it). */
type ScriptedRedis = Redis & { fwRateLimitHit(key: string, decayMs: number): Promise<[number, number]> }

/**
 * Rate-limit counters on Redis (or Valkey), chosen when `CACHE_STORE=redis`: every process and machine on the server
 * shares them, and each hit is one Lua script (one round trip, atomic), so that hits at the same moment each count.
 * Redis ends each window on its own clock (the key expires); the database store stays the default.
 *
 * A Redis that is down or hangs fails the hit within its deadline with a 503 (`CacheUnavailableError`): a throttled
 * route is neither left open nor left waiting while its counters cannot be read.
 *
 * @example
 * ```ts
 * RateLimiter.useStore(new RedisRateLimitStore())        // on the shared redis(); CACHE_STORE=redis does this itself
 * await new RedisRateLimitStore().increment('api|42', 60_000, Date.now()) // { hits: 1, resetAt: … }
 * ```
 */
export class RedisRateLimitStore implements RateLimitStore {
  /** `client`: a Redis client, or by default the application's shared `redis()` (loaded on first use). */
  constructor(private readonly client: () => Redis | Promise<Redis> = sharedRedis) {}

  async increment(key: string, decayMs: number, now: number): Promise<RateLimitCount> {
    const [hits, left] = await this.run((client) => scripted(client).fwRateLimitHit(redisKey(key), Math.max(1, Math.round(decayMs))))
    return { hits, resetAt: now + left }
  }

  async clear(key: string): Promise<void> {
    await this.run((client) => client.del(redisKey(key)))
  }

  /** Runs a command once Redis is connected; whatever keeps Redis from answering becomes a 503. */
  private async run<T>(command: (client: Redis) => Promise<T>): Promise<T> {
    try {
      const client = await this.client()
      await redisReady(client)
      return await command(client)
    } catch (error) {
      // Redis's own answer to a wrong command is a bug to see as it is, not an outage.
      if (error instanceof Error && error.name === 'ReplyError') throw error
      throw cacheUnavailable(error)
    }
  }
}

async function sharedRedis(): Promise<Redis> {
  // Loaded on first use: ioredis takes longer to load than the rest, and only an application on Redis needs it.
  const { redis } = await import('../redis/redis.js')
  return redis()
}

function scripted(client: Redis): ScriptedRedis {
  const withScript = client as ScriptedRedis
  if (typeof withScript.fwRateLimitHit !== 'function') client.defineCommand('fwRateLimitHit', { numberOfKeys: 1, lua: HIT })
  return withScript
}

/** The SHA-256 of the counted key, as the database store keeps it: no address or user id is stored as it is. */
function redisKey(key: string): string {
  return KEY_PREFIX + createHash('sha256').update(key).digest('hex')
}
