import { randomBytes } from 'node:crypto'

/**
 * A new random `APP_KEY`: 32 bytes (the key size of AES-256) from the system's secure random source, written as
 * `base64:…`, the form `Encrypter` decodes. create-fw-app puts one in a new application's `.env`, and
 * `fw key:generate` in an existing one: this is the one place that says what a key looks like.
 *
 * @example
 * ```ts
 * generateAppKey() // 'base64:q3J0…Yx8=' (44 characters after the prefix)
 * ```
 */
export function generateAppKey(): string {
  return `base64:${randomBytes(32).toString('base64')}`
}
