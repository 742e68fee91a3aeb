import { Redis } from 'ioredis'

/** How long connecting to Redis may take before the attempt fails (`REDIS_CONNECT_TIMEOUT_MS`). */
const CONNECT_TIMEOUT_MS = 2000
/** How long one command may wait for its answer (`REDIS_TIMEOUT_MS`): a Redis that hangs fails the call, not the request. */
const COMMAND_TIMEOUT_MS = 1000

let shared: Redis | undefined

/**
 * The application's one Redis client, on `REDIS_URL` (`redis://127.0.0.1:6379` when unset), made on first use and
 * shared by the cache, the locks and whatever else talks to Redis. It fails fast and never hangs: a command sent while
 * Redis is unreachable fails at once (no offline queue), one that gets no answer fails after `REDIS_TIMEOUT_MS`, and
 * the client reconnects on its own, forever, so that the application recovers without a restart.
 *
 * @example
 * ```ts
 * await redis().set('greeting', 'hello', 'EX', 60)
 * ```
 */
export function redis(): Redis {
  shared ??= createRedis(process.env.REDIS_URL)
  return shared
}

/**
 * A Redis client with Fw's fail-fast settings, connecting now; for a second connection, or a test's own server.
 * Give it back with `client.disconnect()`.
 *
 * @example
 * ```ts
 * const client = createRedis('redis://127.0.0.1:6380')
 * ```
 */
export function createRedis(url: string = 'redis://127.0.0.1:6379', env: NodeJS.ProcessEnv = process.env): Redis {
  const client = new Redis(url, {
    // Commands sent while disconnected fail at once instead of waiting in a queue for a server that may not come back.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: milliseconds(env.REDIS_CONNECT_TIMEOUT_MS, CONNECT_TIMEOUT_MS),
    commandTimeout: milliseconds(env.REDIS_TIMEOUT_MS, COMMAND_TIMEOUT_MS),
    // Reconnects forever, at most 2 s apart.
    retryStrategy: (attempt) => Math.min(attempt * 100, 2000),
    // Connects below, by hand: with no offline queue, the first command would otherwise race the connection.
    lazyConnect: true,
    // The commands of one tick go out in one write: a cache hit costs about 25 µs of CPU instead of 36 µs (bench/README).
    enableAutoPipelining: true,
  })
  // The client reports each failed attempt as an 'error' event; a command's own failure is what the caller sees.
  client.on('error', () => undefined)
  client.connect().catch(() => undefined)
  return client
}

/** Closes the shared client (end of a test or of the process); the next `redis()` makes a new one. */
export function closeRedis(): void {
  shared?.disconnect()
  shared = undefined
}

function milliseconds(value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback
  const parsed = Number(value)
  if (!Number.isInteger(parsed) || parsed <= 0) throw new Error(`A Redis timeout must be a whole number of milliseconds above 0, not "${value}"`)
  return parsed
}
