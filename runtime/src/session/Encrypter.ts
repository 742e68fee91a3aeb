import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { appSecrets, deriveKeys } from './appKeys.js'

const IV_BYTES = 12
const TAG_BYTES = 16
const VERSION = 'v1.'

/**
 * Authenticated encryption (AES-256-GCM) of short strings such as cookie values, keyed by the application's
 * `APP_KEY`: what it seals can be neither read nor changed without the key. Older keys listed in
 * `APP_PREVIOUS_KEYS` still open what they sealed, so a key can be rotated without signing everybody out.
 *
 * @example
 * ```ts
 * const encrypter = Encrypter.fromEnvironment('fw-session')
 * const sealed = encrypter.seal('{"user":1}')
 * encrypter.open(sealed) // '{"user":1}', or undefined for anything tampered with
 * ```
 */
export class Encrypter {
  private readonly keys: Buffer[]

  /** `keys[0]` seals; every key opens. `purpose` keeps keys derived for one use from opening another's values. */
  constructor(secrets: readonly string[], purpose: string) {
    if (secrets.length === 0) throw new Error('An Encrypter needs at least one key')
    this.keys = deriveKeys(secrets, purpose)
  }

  /**
   * From `APP_KEY` (and `APP_PREVIOUS_KEYS`, comma-separated) in the environment; throws when APP_KEY is unset,
   * saying what needs it (`usedFor`).
   */
  static fromEnvironment(purpose: string, usedFor = 'sessions and other encrypted values'): Encrypter {
    return new Encrypter(appSecrets(usedFor), purpose)
  }

  /** The text, encrypted and authenticated, as URL-safe characters. */
  seal(text: string): string {
    const iv = randomBytes(IV_BYTES)
    const cipher = createCipheriv('aes-256-gcm', this.keys[0]!, iv)
    const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()])
    return VERSION + Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url')
  }

  /** The text that `seal` sealed with one of the keys, or undefined for anything else. Never throws. */
  open(sealed: string): string | undefined {
    if (!sealed.startsWith(VERSION)) return undefined
    const bytes = Buffer.from(sealed.slice(VERSION.length), 'base64url')
    if (bytes.length < IV_BYTES + TAG_BYTES) return undefined
    const iv = bytes.subarray(0, IV_BYTES)
    const body = bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)
    const tag = bytes.subarray(bytes.length - TAG_BYTES)
    for (const key of this.keys) {
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, iv)
        decipher.setAuthTag(tag)
        return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8')
      } catch {
        // Not sealed with this key (or tampered with): try the next one.
      }
    }
    return undefined
  }
}
