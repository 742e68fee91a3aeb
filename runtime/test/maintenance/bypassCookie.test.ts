import { describe, expect, it } from 'vitest'
import { BYPASS_SECONDS, bypassCookie, isValidBypass } from '../../src/maintenance/bypassCookie.js'

const HASH = 'a'.repeat(64)

describe('bypassCookie', () => {
  it('lasts twelve hours, for the secret it was made for', () => {
    const now = 1_800_000_000_000
    const cookie = bypassCookie(HASH, now)
    expect(cookie).toMatch(new RegExp(`^${now / 1000 + BYPASS_SECONDS}\\.[\\w-]{43}$`))
    expect(isValidBypass(cookie, HASH, now)).toBe(true)
    expect(isValidBypass(cookie, HASH, now + BYPASS_SECONDS * 1000 - 1)).toBe(true)
    expect(isValidBypass(cookie, HASH, now + BYPASS_SECONDS * 1000)).toBe(false)
    expect(isValidBypass(cookie, 'b'.repeat(64), now)).toBe(false)
  })

  it('cannot be stretched or made up', () => {
    const now = 1_800_000_000_000
    const [expires, mac] = bypassCookie(HASH, now).split('.')
    expect(isValidBypass(`${Number(expires) + 86_400}.${mac}`, HASH, now)).toBe(false)
    for (const value of [undefined, '', 'x', `${expires}.`, `${expires}.${mac}x`, `-1.${mac}`]) expect(isValidBypass(value, HASH, now)).toBe(false)
  })
})
