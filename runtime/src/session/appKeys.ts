import { hkdfSync } from 'node:crypto'

/**
 * `APP_KEY`, then the older keys of `APP_PREVIOUS_KEYS` (comma-separated), which still open or verify what they made,
 * so that a key can be rotated. Throws, saying what needs the key, when APP_KEY is unset.
 */
export function appSecrets(usedFor: string): string[] {
  const current = process.env.APP_KEY
  if (!current) throw new Error(`APP_KEY is not set: ${usedFor} need it. Run npx fw key:generate to put one in .env`)
  const previous = (process.env.APP_PREVIOUS_KEYS ?? '').split(',').map((key) => key.trim()).filter(Boolean)
  return [current, ...previous]
}

/**
 * A 32-byte key for one purpose from each secret (HKDF-SHA256): keys derived for one use (sessions, signed links)
 * never verify or open another's values. `base64:…` secrets, as `fw key:generate` writes them, are decoded first.
 */
export function deriveKeys(secrets: readonly string[], purpose: string): Buffer[] {
  return secrets.map((secret) => {
    const bytes = secret.startsWith('base64:') ? Buffer.from(secret.slice(7), 'base64') : Buffer.from(secret, 'utf8')
    return Buffer.from(hkdfSync('sha256', bytes, Buffer.alloc(0), purpose, 32))
  })
}
