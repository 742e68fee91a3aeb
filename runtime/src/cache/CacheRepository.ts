import { BentoCache, bentostore } from 'bentocache'
import type { CacheProvider, GetSetFactoryContext } from 'bentocache/types'
import { DatabaseDriver } from 'bentocache/drivers/database'
import { memoryDriver } from 'bentocache/drivers/memory'
import { E_LOCK_NOT_OWNED, LockFactory } from '@verrou/core'
import type { LockStore } from '@verrou/core/types'
import type { Redis } from 'ioredis'
import type { Kysely } from 'kysely'
import { randomUUID } from 'node:crypto'
import { HttpError } from '../http/HttpError.js'
import { redisReady } from '../redis/redisReady.js'
import { cacheSerializer } from './cacheSerializer.js'
import { cacheUnavailable } from './CacheUnavailableError.js'
import { DatabaseCacheAdapter } from './DatabaseCacheAdapter.js'
import { DatabaseLockStore } from './DatabaseLockStore.js'
import { Lock } from './Lock.js'
import { MemoryLockStore } from './MemoryLockStore.js'

/** Where a cache keeps its values and locks: this process's memory, the application's database, or Redis. */
export type CacheStoreName = 'memory' | 'database' | 'redis'

/** What a cache is made with: its store, and what that store needs. */
export interface CacheOptions {
  store: CacheStoreName
  /** The database of the `database` store. */
  database?: () => Kysely<any>
  /** The client of the `redis` store, or the promise of one. */
  redis?: Redis | Promise<Redis>
  /** How long `remember`, `add` and `increment` wait for another process holding the key (503 after), in seconds: 10. */
  waitSeconds?: number
}

/** A value as the cache stores it: the value, and when it expires (ms since the epoch, null: never) for `increment`. */
interface Entry {
  v: unknown
  x: number | null
}

/** bentocache and verrou on the store: made at once, or, for Redis, once its modules have loaded. */
interface Engine {
  bento: CacheProvider
  locks: LockFactory
}

/** The longest a `remember` computing a value holds its lock: after a crash, the next process computes it. */
const REMEMBER_LOCK_MS = 30_000
/** How long `add` and `increment` hold the key's lock: a read and a write. */
const KEY_LOCK_MS = 10_000
/** How many values the memory store keeps; past them, the least recently used go first (an LRU). */
const MEMORY_MAX_ITEMS = 10_000
/** The message of async-mutex's E_TIMEOUT, which bentocache throws when its in-process wait for a key times out. */
const MUTEX_TIMEOUT = 'timeout while waiting for mutex to become available'
/** Lock names in the store, apart from the cache's own keys. */
const LOCK_PREFIX = 'fw:lock:'

/**
 * A cache, as Laravel's cache `Repository` (what `Cache::` calls): values kept for some seconds, or forever, as JSON with Dates and
 * bigints kept, on the store `CACHE_STORE` names; plus atomic locks on the same store. Built on bentocache (values)
 * and verrou (locks). A store that cannot answer (Redis down or hanging, the database unavailable) fails the call
 * with a 503 error within its deadline, never a hang.
 *
 * @example
 * ```ts
 * const stats = await cache().remember('stats', 60, () => computeStats())
 * await cache().put('greeting', 'hello', 300)
 * await cache().increment('visits')
 * ```
 */
export class CacheRepository {
  readonly store: CacheStoreName
  private readonly engine: Engine | Promise<Engine>
  private readonly ready: (() => Promise<void>) | undefined
  private readonly waitMs: number

  constructor(options: CacheOptions) {
    this.store = options.store
    this.waitMs = (options.waitSeconds ?? 10) * 1000
    const parts = storeParts(options)
    this.engine = parts instanceof Promise ? parts.then((loaded) => this.open(loaded)) : this.open(parts)
    // A failed load (a missing module) is the first call's error, not an unhandled rejection.
    if (this.engine instanceof Promise) this.engine.catch(() => undefined)
    const client = options.redis
    this.ready = client ? async () => redisReady(await client) : undefined
  }

  private open({ values, locks }: StoreParts): Engine {
    // One tier per store, errors not suppressed: a store that fails must reach the caller as a 503, not a miss.
    const bento = new BentoCache({
      default: 'app',
      stores: { app: values },
      prefix: 'fw:cache',
      serializer: cacheSerializer,
      suppressL2Errors: false,
      lockTimeout: this.waitMs,
    }).use('app')
    return { bento, locks: new LockFactory(locks, { retry: { timeout: this.waitMs, delay: 50 } }) }
  }

  /**
   * The value under `key`, or `fallback` when there is none (or it has expired).
   *
   * @example
   * ```ts
   * const theme = await cache().get<string>('theme', 'light')
   * ```
   */
  async get<T = unknown>(key: string): Promise<T | undefined>
  async get<T = unknown>(key: string, fallback: T): Promise<T>
  async get<T = unknown>(key: string, fallback?: T): Promise<T | undefined> {
    const entry = await this.entry(key)
    return entry === undefined ? fallback : (entry.v as T)
  }

  /** Whether a value is stored under `key`. */
  async has(key: string): Promise<boolean> {
    return (await this.entry(key)) !== undefined
  }

  /**
   * Stores `value` under `key` for `seconds`, or forever without them.
   *
   * @example
   * ```ts
   * await cache().put('report', report, 600)
   * ```
   */
  async put(key: string, value: unknown, seconds?: number): Promise<void> {
    const ttl = seconds === undefined ? null : seconds * 1000
    await this.write(key, { v: value, x: ttl === null ? null : Date.now() + ttl })
  }

  /** Stores `value` under `key` with no expiry. */
  forever(key: string, value: unknown): Promise<void> {
    return this.put(key, value)
  }

  /**
   * Stores `value` only if nothing is stored under `key` yet, atomically across processes: true when it did.
   *
   * @example
   * ```ts
   * if (await cache().add(`welcomed:${user.id}`, true, 86_400)) await sendWelcome(user)
   * ```
   */
  add(key: string, value: unknown, seconds?: number): Promise<boolean> {
    return this.underKeyLock(key, async () => {
      if ((await this.entry(key)) !== undefined) return false
      await this.put(key, value, seconds)
      return true
    })
  }

  /**
   * The value under `key`; on a miss, `compute`'s result, stored for `seconds`. Across every process on the store one
   * computes it and the others wait for it (at most `waitSeconds`, then 503), so a cold key does not hit the database
   * once per process.
   *
   * @example
   * ```ts
   * const posts = await cache().remember('posts:popular', 300, () => Post.query().orderBy('views', 'desc').limit(10).get())
   * ```
   */
  async remember<T>(key: string, seconds: number | null, compute: () => T | Promise<T>): Promise<T> {
    const ttl = seconds === null ? null : seconds * 1000
    const entry = await this.guard(async () => {
      const { bento, locks } = await this.engine
      // bentocache lets one caller in this process run the factory; the lock makes other processes wait for it too.
      return bento.getOrSet({
        key,
        ttl,
        factory: async (context: GetSetFactoryContext) => {
          const lock = locks.createLock(`${LOCK_PREFIX}remember:${key}`, REMEMBER_LOCK_MS)
          if (!(await lock.acquire())) throw cacheUnavailable(new Error(`remember("${key}") waited ${this.waitMs} ms for another process computing it`))
          try {
            // Another process may have computed it while this one waited for the lock.
            const stored = (await bento.get({ key })) as Entry | undefined
            if (stored !== undefined) {
              if (stored.x !== null) context.setTtl(Math.max(1, stored.x - Date.now()))
              context.setOptions({ skipL2Write: true })
              return stored
            }
            const entry: Entry = { v: await computed(compute), x: ttl === null ? null : Date.now() + ttl }
            // Stored before the lock is released (bentocache would store it after), so that the next process to take
            // the lock finds it instead of computing it again.
            await bento.set({ key, value: entry, ttl })
            context.setOptions({ skipL2Write: true })
            return entry
          } finally {
            await lock.release().catch(() => undefined)
          }
        },
      })
    })
    return (entry as Entry).v as T
  }

  /** `remember` with no expiry. */
  rememberForever<T>(key: string, compute: () => T | Promise<T>): Promise<T> {
    return this.remember(key, null, compute)
  }

  /** The value under `key`, removed. */
  async pull<T = unknown>(key: string): Promise<T | undefined> {
    const value = await this.get<T>(key)
    await this.forget(key)
    return value
  }

  /** Removes the value under `key`: true when there was one. */
  forget(key: string): Promise<boolean> {
    return this.guard(async () => (await this.engine).bento.delete({ key }))
  }

  /** Removes every value of this cache (its locks stay). */
  flush(): Promise<void> {
    return this.guard(async () => (await this.engine).bento.clear())
  }

  /**
   * Deletes the expired values from the store's storage: on the database store, rows nobody read again since they
   * expired (a read deletes an expired row itself). Redis and memory expire values on their own.
   *
   * @example
   * ```ts
   * schedule.call('cache:prune', () => cache().prune()).hourly()
   * ```
   */
  prune(): Promise<void> {
    return this.guard(async () => (await this.engine).bento.prune())
  }

  /**
   * Adds `by` to the number under `key` (0 when there is none), atomically across processes, keeping its expiry;
   * returns the new number.
   *
   * @example
   * ```ts
   * const views = await cache().increment(`views:${post.id}`)
   * ```
   */
  increment(key: string, by = 1): Promise<number> {
    return this.underKeyLock(key, async () => {
      const entry = await this.entry(key)
      const current = entry?.v ?? 0
      if (typeof current !== 'number') throw new TypeError(`cache().increment("${key}"): the value stored is not a number (${JSON.stringify(current)})`)
      const next = current + by
      await this.write(key, { v: next, x: entry?.x ?? null })
      return next
    })
  }

  /** Subtracts `by` from the number under `key`; see `increment`. */
  decrement(key: string, by = 1): Promise<number> {
    return this.increment(key, -by)
  }

  /**
   * The values under `keys`, by key (undefined for a miss).
   *
   * @example
   * ```ts
   * const { a, b } = await cache().many(['a', 'b'])
   * ```
   */
  async many<T = unknown>(keys: readonly string[]): Promise<Record<string, T | undefined>> {
    const values = await Promise.all(keys.map((key) => this.get<T>(key)))
    return Object.fromEntries(keys.map((key, index) => [key, values[index]]))
  }

  /** Stores each value under its key for `seconds`, or forever without them. */
  async putMany(values: Record<string, unknown>, seconds?: number): Promise<void> {
    await Promise.all(Object.entries(values).map(([key, value]) => this.put(key, value, seconds)))
  }

  /**
   * An atomic lock named `name`, held at most `seconds`, on this cache's store; `owner` to act as an owner that
   * already holds it (see `restoreLock`).
   *
   * @example
   * ```ts
   * const { acquired } = await cache().lock('reports:daily', 600).run(() => buildReport())
   * ```
   */
  lock(name: string, seconds: number, owner?: string): Lock {
    if (!(seconds > 0)) throw new Error(`cache().lock("${name}", ${seconds}): a lock needs a number of seconds above 0, so that an owner that dies cannot hold it forever`)
    return this.makeLock(name, owner ?? randomUUID(), seconds * 1000)
  }

  /**
   * The lock `name` as held by `owner` (its `lock.owner()`), e.g. in the job that finishes the work another process
   * locked, to release it there.
   *
   * @example
   * ```ts
   * await cache().restoreLock('import', job.lockOwner).release()
   * ```
   */
  restoreLock(name: string, owner: string): Lock {
    return this.makeLock(name, owner, null)
  }

  private makeLock(name: string, owner: string, ttl: number | null): Lock {
    const open = async () => (await this.engine).locks.restoreLock({ key: LOCK_PREFIX + name, owner, ttl, expirationTime: null })
    return new Lock(name, owner, open, this.guard)
  }

  private entry(key: string): Promise<Entry | undefined> {
    return this.guard(async () => {
      const entry = (await (await this.engine).bento.get({ key })) as Entry | undefined
      return entry === undefined || entry.v === undefined ? undefined : entry
    })
  }

  private async write(key: string, entry: Entry): Promise<void> {
    const ttl = entry.x === null ? null : entry.x - Date.now()
    if (ttl !== null && ttl <= 0) {
      await this.forget(key)
      return
    }
    await this.guard(async () => (await this.engine).bento.set({ key, value: entry, ttl }))
  }

  /** Runs a read and a write as one step across processes: under a short lock on the key. */
  private async underKeyLock<T>(key: string, work: () => Promise<T>): Promise<T> {
    const lock = (await this.engine).locks.createLock(`${LOCK_PREFIX}key:${key}`, KEY_LOCK_MS)
    if (!(await this.guard(() => lock.acquire()))) throw cacheUnavailable(new Error(`the cache key "${key}" stayed locked by another process for ${this.waitMs} ms`))
    try {
      return await work()
    } finally {
      await lock.release().catch(() => undefined)
    }
  }

  /** Runs a store call: once Redis is connected, and with what failed turned into the error the caller should see. */
  private readonly guard = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      if (this.ready) await this.ready()
      return await work()
    } catch (error) {
      throw this.failure(error)
    }
  }

  private failure(error: unknown): unknown {
    // bentocache wraps what failed in its store (E_L2_CACHE_ERROR) or factory (E_FACTORY_ERROR): the cause is what counts.
    const code = (error as { code?: unknown } | undefined)?.code
    if ((code === 'E_L2_CACHE_ERROR' || code === 'E_FACTORY_ERROR') && error instanceof Error && error.cause !== undefined) return this.failure(error.cause)
    if (error instanceof ComputeFailed) return error.error
    if (error instanceof HttpError || error instanceof E_LOCK_NOT_OWNED) return error
    // bentocache's wait for a `remember` of the same key in this process (async-mutex's E_TIMEOUT) ran past waitSeconds.
    if (error instanceof Error && error.message === MUTEX_TIMEOUT) return cacheUnavailable(new Error(`waited ${this.waitMs} ms for this process's other call computing the value`, { cause: error }))
    // On Redis every failure but Redis's own answer to a wrong command means the server cannot be used now.
    if (this.store === 'redis' && !(error instanceof Error && error.name === 'ReplyError')) return cacheUnavailable(error)
    return error
  }
}

/** What `remember`'s compute threw, kept apart from the store's failures so that it reaches the caller as it is. */
class ComputeFailed {
  constructor(readonly error: unknown) {}
}

async function computed<T>(compute: () => T | Promise<T>): Promise<T> {
  try {
    return await compute()
  } catch (error) {
    throw new ComputeFailed(error)
  }
}

/** What bentocache and verrou run on, for a store. */
interface StoreParts {
  values: ReturnType<typeof bentostore>
  locks: LockStore
}

/** The parts of a store; Redis's once its modules have loaded (ioredis takes longer to load than the rest). */
function storeParts(options: CacheOptions): StoreParts | Promise<StoreParts> {
  switch (options.store) {
    case 'memory':
      // Kept as they are, not as JSON (Laravel's array store does the same): nothing leaves the process, and a read skips
      // a JSON round trip of its entry (the bench's cache suite: a third of what a hit costs). A value read is the one
      // stored, not a copy.
      return { values: bentostore().useL1Layer(memoryDriver({ maxItems: MEMORY_MAX_ITEMS, serialize: false })), locks: new MemoryLockStore() }
    case 'database': {
      const database = options.database
      if (!database) throw new Error('The database cache store needs a database')
      // Fw makes the table on first use and prunes from its own schedule: no table made, no timer, at start-up.
      const adapter = new DatabaseCacheAdapter(database)
      const driver = { options: {}, factory: (config: object) => new DatabaseDriver(adapter, { ...config, autoCreateTable: false, pruneInterval: false }) }
      return { values: bentostore().useL2Layer(driver), locks: new DatabaseLockStore(database) }
    }
    case 'redis':
      if (!options.redis) throw new Error('The redis cache store needs a Redis client')
      return redisParts(options.redis)
    default:
      throw new Error(`Unknown cache store "${String(options.store)}": use memory, database or redis`)
  }
}

async function redisParts(client: Redis | Promise<Redis>): Promise<StoreParts> {
  const [{ redisDriver }, { RedisStore }, connection] = await Promise.all([import('bentocache/drivers/redis'), import('@verrou/core/drivers/redis'), client])
  return { values: bentostore().useL2Layer(redisDriver({ connection })), locks: new RedisStore({ connection }) }
}
