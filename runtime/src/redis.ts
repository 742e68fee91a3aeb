// fw-runtime/redis: the application's one Redis client (REDIS_URL), which fails fast and reconnects by itself.
export { closeRedis, createRedis, redis } from './redis/redis.js'
export { redisReady } from './redis/redisReady.js'
