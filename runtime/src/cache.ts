// fw-runtime/cache: values kept for a while on the store CACHE_STORE names (database, redis, memory), and atomic locks.
export { CacheRepository, type CacheOptions, type CacheStoreName } from './cache/CacheRepository.js'
export { cache, createCache, resetCache } from './cache/cache.js'
export { CacheUnavailableError } from './cache/CacheUnavailableError.js'
export { Lock } from './cache/Lock.js'
export { LockTimeoutError } from './cache/LockTimeoutError.js'
