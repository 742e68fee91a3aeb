import type { Kysely } from 'kysely'
import { Container } from '../container/Container.js'
import { CacheRepository, type CacheStoreName } from './CacheRepository.js'

let shared: CacheRepository | undefined

/**
 * The application's cache, as Laravel's `Cache` facade, on the store `CACHE_STORE` names: `database` (the default:
 * a table in the application's database, shared by all its processes), `redis` (on `REDIS_URL`), or `memory` (this
 * process only). Made on first use.
 *
 * @example
 * ```ts
 * const stats = await cache().remember('stats', 60, () => computeStats())
 * await cache().lock('reports:daily', 600).run(() => buildReport())
 * ```
 */
export function cache(): CacheRepository {
  shared ??= createCache(cacheStoreName(process.env.CACHE_STORE))
  return shared
}

/**
 * A cache on `store`, apart from the application's: the database store on the container's `db`, the Redis store on
 * the shared `redis()` client.
 *
 * @example
 * ```ts
 * const local = createCache('memory')
 * ```
 */
export function createCache(store: CacheStoreName): CacheRepository {
  if (store === 'database') return new CacheRepository({ store, database: () => Container.getInstance().make<Kysely<any>>('db') })
  // Loaded on first use: ioredis takes longer to load than the rest of the cache, and only the redis store needs it.
  if (store === 'redis') return new CacheRepository({ store, redis: import('../redis/redis.js').then(({ redis }) => redis()) })
  return new CacheRepository({ store })
}

/** Forgets the application's cache (tests, or after changing `CACHE_STORE`): the next `cache()` makes it again. */
export function resetCache(): void {
  shared = undefined
}

function cacheStoreName(value: string | undefined): CacheStoreName {
  if (value === undefined || value === '') return 'database'
  if (value === 'database' || value === 'redis' || value === 'memory') return value
  throw new Error(`CACHE_STORE="${value}" is not a cache store: use database, redis or memory`)
}
