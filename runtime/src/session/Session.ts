import { randomBytes } from 'node:crypto'

/** What a session cookie holds, encrypted: the values, the flash bookkeeping, the CSRF token and its expiry. */
export interface SessionPayload {
  /** The session's id: a new one after `regenerate()`, so a fixed id planted before sign-in is worthless. */
  id: string
  data: Record<string, unknown>
  /** Keys flashed during this request (kept for the next one) and during the previous one (dropped after this one). */
  flash: { new: string[]; old: string[] }
  /** The CSRF token of `request.csrfToken()`. */
  token?: string
  /** When the session ends, in milliseconds since the epoch. */
  expires: number
  /** How long this session lasts idle, in milliseconds, when `keepFor` set it (else the middleware's lifetime). */
  lifetime?: number
}

function newId(): string {
  return randomBytes(16).toString('base64url')
}

/**
 * The data of one visitor kept between requests, as in Laravel: values put in stay until forgotten,
 * flashed values last for the next request only. Read it as `request.session` on routes that run the
 * `session` middleware.
 *
 * @example
 * ```ts
 * request.session.put('cart', [1, 2])
 * request.session.flash('status', 'Saved!')   // shown once, on the next page
 * const cart = request.session.get<number[]>('cart', [])
 * ```
 */
export class Session {
  private payload: SessionPayload

  /** A session from what its cookie held, or a new empty one. */
  constructor(payload: SessionPayload | undefined, lifetimeMs: number) {
    this.payload = payload ?? { id: newId(), data: Object.create(null) as Record<string, unknown>, flash: { new: [], old: [] }, expires: Date.now() + lifetimeMs }
  }

  /** The session's id (changes with `regenerate`). */
  id(): string {
    return this.payload.id
  }

  /** A value, or the default when the key is absent. */
  get<T = unknown>(key: string, defaultValue?: T): T {
    return (Object.hasOwn(this.payload.data, key) ? this.payload.data[key] : defaultValue) as T
  }

  has(key: string): boolean {
    return Object.hasOwn(this.payload.data, key)
  }

  /** Every value, as a copy. */
  all(): Record<string, unknown> {
    return { ...this.payload.data }
  }

  /** Keeps a value (anything JSON can hold) until it is forgotten. */
  put(key: string, value: unknown): this {
    this.payload.data[key] = value
    this.unflash(key)
    return this
  }

  /** Takes a value out of the session and returns it. */
  pull<T = unknown>(key: string, defaultValue?: T): T {
    const value = this.get(key, defaultValue)
    this.forget(key)
    return value
  }

  forget(...keys: string[]): this {
    for (const key of keys) {
      if (!Object.hasOwn(this.payload.data, key)) continue
      delete this.payload.data[key]
      this.unflash(key)
      }
    return this
  }

  /** A value for the next request only, such as a status message after a redirect. */
  flash(key: string, value: unknown): this {
    this.payload.data[key] = value
    this.payload.flash.old = this.payload.flash.old.filter((name) => name !== key)
    if (!this.payload.flash.new.includes(key)) this.payload.flash.new.push(key)
    return this
  }

  /** Keeps this request's flashed values (those flashed by the previous request) for one more request. */
  reflash(): this {
    this.payload.flash.new = [...new Set([...this.payload.flash.new, ...this.payload.flash.old])]
    this.payload.flash.old = []
    return this
  }

  /**
   * A new id and a new CSRF token, keeping the values: call it when the user signs in or out, so that
   * an id or token learned before does not carry over.
   */
  regenerate(): this {
    this.payload.id = newId()
    delete this.payload.token
    return this
  }

  /** Forgets every value and regenerates: a signed-out, empty session, with the middleware's lifetime again. */
  invalidate(): this {
    this.payload.data = Object.create(null) as Record<string, unknown>
    this.payload.flash = { new: [], old: [] }
    delete this.payload.lifetime
    return this.regenerate()
  }

  /**
   * Makes this session last `ms` milliseconds idle, its cookie included, instead of the middleware's lifetime (until
   * `invalidate()`): for "remember me", which `signIn(request, user, { remember: true })` sets to 30 days.
   *
   * @example
   * ```ts
   * request.session.keepFor(30 * 24 * 60 * 60 * 1000)
   * ```
   */
  keepFor(ms: number): this {
    if (!(Number.isSafeInteger(ms) && ms > 0)) throw new TypeError(`keepFor() takes a number of milliseconds above 0, got ${String(ms)}`)
    this.payload.lifetime = ms
    return this
  }

  /** How long this session lasts idle, in milliseconds: what `keepFor` set, else `fallback` (the middleware's). */
  lifetime(fallback: number): number {
    return this.payload.lifetime ?? fallback
  }

  /** The session's CSRF token, made on first use. */
  token(): string {
    if (!this.payload.token) {
      this.payload.token = randomBytes(32).toString('base64url')
      }
    return this.payload.token
  }

  /** Whether the session holds nothing worth a cookie. */
  isEmpty(): boolean {
    return Object.keys(this.payload.data).length === 0 && this.payload.token === undefined
  }

  /**
   * Ends the request for the flash data: what the previous request flashed is dropped, what this one
   * flashed is kept for the next. Returns what the cookie must hold now.
   */
  close(lifetimeMs: number): SessionPayload {
    for (const key of this.payload.flash.old) delete this.payload.data[key]
    this.payload.flash = { new: [], old: this.payload.flash.new }
    this.payload.expires = Date.now() + this.lifetime(lifetimeMs)
    return this.payload
  }

  private unflash(key: string): void {
    this.payload.flash.new = this.payload.flash.new.filter((name) => name !== key)
    this.payload.flash.old = this.payload.flash.old.filter((name) => name !== key)
  }
}
