import { createHmac, timingSafeEqual } from 'node:crypto'
import { appSecrets, deriveKeys } from '../session/appKeys.js'

/** What `verify` says of a link. */
export type SignatureCheck = 'valid' | 'invalid' | 'expired'

const SIGNED = /^(.*)[?&]signature=([0-9a-f]{64})$/

/**
 * Signs links (a path and its query) with HMAC-SHA256 under a key derived from `APP_KEY`, as Laravel's signed
 * routes do: `?expires=<unix seconds>` (when the link expires) and then `&signature=<hex>` are appended, and the
 * signature covers everything before it, the expiry included. Changing, adding or removing any part of the path or
 * query makes it invalid. Keys of `APP_PREVIOUS_KEYS` still verify the links they signed.
 *
 * @example
 * ```ts
 * const signer = UrlSigner.fromEnvironment()
 * const link = signer.sign('/unsubscribe/5', Math.floor(Date.now() / 1000) + 3600)
 * signer.verify(link) // 'valid'
 * ```
 */
export class UrlSigner {
  private readonly keys: Buffer[]

  /** `secrets[0]` signs; every one verifies. */
  constructor(secrets: readonly string[]) {
    if (secrets.length === 0) throw new Error('A UrlSigner needs at least one key')
    this.keys = deriveKeys(secrets, 'fw-signed-url')
  }

  /** From `APP_KEY` and `APP_PREVIOUS_KEYS`; throws when APP_KEY is unset. */
  static fromEnvironment(): UrlSigner {
    return new UrlSigner(appSecrets('signed links'))
  }

  /** The link with its expiry (unix seconds; none for a link that never expires) and its signature appended. */
  sign(target: string, expiresAt?: number): string {
    const content = expiresAt === undefined ? target : `${target}${target.includes('?') ? '&' : '?'}expires=${Math.floor(expiresAt)}`
    return `${content}${content.includes('?') ? '&' : '?'}signature=${this.signature(this.keys[0]!, content)}`
  }

  /** Whether a link (a path and query, as a request sent it) carries a signature of one of the keys, and is not past its expiry. */
  verify(target: string, now: number = Date.now()): SignatureCheck {
    const signed = SIGNED.exec(target)
    if (!signed) return 'invalid'
    const content = signed[1]!
    const given = Buffer.from(signed[2]!, 'hex')
    if (!this.keys.some((key) => timingSafeEqual(Buffer.from(this.signature(key, content), 'hex'), given))) return 'invalid'
    const query = content.indexOf('?')
    const expires = query === -1 ? null : new URLSearchParams(content.slice(query + 1)).get('expires')
    if (expires !== null && !(Number(expires) * 1000 > now)) return 'expired'
    return 'valid'
  }

  private signature(key: Buffer, content: string): string {
    return createHmac('sha256', key).update(content).digest('hex')
  }
}
