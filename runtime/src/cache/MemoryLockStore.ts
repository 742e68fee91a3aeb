import { E_LOCK_NOT_OWNED } from '@verrou/core'
import type { LockStore } from '@verrou/core/types'

/**
 * Locks in this process's memory, for the `memory` cache store: a map of names to owners and expiry times. Written for
 * Fw rather than verrou's memory store, which keeps the first owner's token when a second owner takes an expired lock
 * over, so that the second can never release it.
 *
 * @example
 * ```ts
 * const locks = new LockFactory(new MemoryLockStore())
 * ```
 */
export class MemoryLockStore implements LockStore {
  private readonly locks = new Map<string, { owner: string; expiresAt: number }>()

  async save(key: string, owner: string, ttl: number | null): Promise<boolean> {
    if (this.held(key)) return false
    this.locks.set(key, { owner, expiresAt: ttl === null ? Number.POSITIVE_INFINITY : Date.now() + ttl })
    return true
  }

  async delete(key: string, owner: string): Promise<void> {
    if (this.held(key)?.owner !== owner) throw new E_LOCK_NOT_OWNED()
    this.locks.delete(key)
  }

  async forceDelete(key: string): Promise<void> {
    this.locks.delete(key)
  }

  async exists(key: string): Promise<boolean> {
    return this.held(key) !== undefined
  }

  async extend(key: string, owner: string, duration: number): Promise<void> {
    const lock = this.held(key)
    if (lock?.owner !== owner) throw new E_LOCK_NOT_OWNED()
    lock.expiresAt = Date.now() + duration
  }

  /** The lock under `key` while it has not expired; an expired one is dropped. */
  private held(key: string): { owner: string; expiresAt: number } | undefined {
    const lock = this.locks.get(key)
    if (lock && lock.expiresAt <= Date.now()) {
      this.locks.delete(key)
      return undefined
    }
    return lock
  }
}
