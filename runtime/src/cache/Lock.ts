import { E_LOCK_NOT_OWNED, type Lock as VerrouLock } from '@verrou/core'
import { LockTimeoutError } from './LockTimeoutError.js'

/** How often `block` tries again while another owner holds the lock (Laravel polls every 250 ms). */
const BLOCK_RETRY_MS = 100

/** Runs a store call, turning a store that cannot answer into the cache's 503 (CacheUnavailableError or the database's). */
export type StoreGuard = <T>(work: () => Promise<T>) => Promise<T>

/**
 * An atomic lock, as Laravel's `Cache::lock()`: one owner at a time across every process on the cache's store, held
 * until released or until its seconds run out (an owner that dies without releasing it cannot block the others for
 * longer). Only its owner releases it; `owner()` is the token another process hands to `cache().restoreLock()`.
 *
 * @example
 * ```ts
 * const lock = cache().lock('reports:daily', 60)
 * if (await lock.get()) {
 *   try { await buildReport() } finally { await lock.release() }
 * }
 * ```
 */
export class Lock {
  private opened: Promise<VerrouLock> | undefined

  constructor(
    /** The lock's name, as given to `cache().lock(name)`. */
    readonly name: string,
    private readonly ownerToken: string,
    private readonly open: () => Promise<VerrouLock>,
    private readonly guard: StoreGuard,
  ) {}

  /** The owner's token: a random UUID per lock, or the one given to `restoreLock`. */
  owner(): string {
    return this.ownerToken
  }

  /** Takes the lock if nobody holds it, without waiting: true when this owner now holds it. */
  get(): Promise<boolean> {
    return this.guard(async () => (await this.lock()).acquireImmediately())
  }

  /**
   * Runs `work` if the lock can be taken now, and releases it afterwards, even when `work` throws; does nothing while
   * another owner holds it.
   *
   * @example
   * ```ts
   * const { acquired, value } = await cache().lock('reports:daily', 600).run(() => buildReport())
   * ```
   */
  async run<T>(work: () => T | Promise<T>): Promise<{ acquired: true; value: T } | { acquired: false; value?: undefined }> {
    if (!(await this.get())) return { acquired: false }
    try {
      return { acquired: true, value: await work() }
    } finally {
      await this.releaseQuietly()
    }
  }

  /**
   * Waits up to `seconds` for the lock, then runs `work` and releases it (or, without `work`, returns true and leaves
   * the release to you). Throws LockTimeoutError (503 when uncaught) when another owner still holds it by then.
   *
   * @example
   * ```ts
   * await cache().lock('import', 120).block(5, () => runImport())
   * ```
   */
  async block(seconds: number): Promise<true>
  async block<T>(seconds: number, work: () => T | Promise<T>): Promise<T>
  async block<T>(seconds: number, work?: () => T | Promise<T>): Promise<T | true> {
    const acquired = await this.guard(async () => (await this.lock()).acquire({ retry: { timeout: seconds * 1000, delay: BLOCK_RETRY_MS } }))
    if (!acquired) throw new LockTimeoutError(this.name, seconds)
    if (!work) return true
    try {
      return await work()
    } finally {
      await this.releaseQuietly()
    }
  }

  /** Releases the lock if this owner holds it: false when it had expired or another owner holds it now. */
  async release(): Promise<boolean> {
    try {
      await this.guard(async () => (await this.lock()).release())
      return true
    } catch (error) {
      if (error instanceof E_LOCK_NOT_OWNED) return false
      throw error
    }
  }

  /** Releases the lock whoever holds it. */
  forceRelease(): Promise<void> {
    return this.guard(async () => (await this.lock()).forceRelease())
  }

  /** Gives this owner `seconds` more from now; throws when it no longer holds the lock. */
  extend(seconds: number): Promise<void> {
    return this.guard(async () => (await this.lock()).extend(seconds * 1000))
  }

  /** Whether any owner holds the lock now. */
  isLocked(): Promise<boolean> {
    return this.guard(async () => (await this.lock()).isLocked())
  }

  /** verrou's lock, made once the store is open (Redis's modules load on first use). */
  private lock(): Promise<VerrouLock> {
    this.opened ??= this.open()
    return this.opened
  }

  /** After `run` and `block`: the lock expires anyway, so a store that fails now must not hide the work's result. */
  private async releaseQuietly(): Promise<void> {
    await this.release().catch(() => false)
  }
}
