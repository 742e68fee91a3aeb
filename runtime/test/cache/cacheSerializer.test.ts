import { describe, expect, it } from 'vitest'
import { cacheSerializer } from '../../src/cache/cacheSerializer.js'

describe('cacheSerializer', () => {
  it('keeps Dates and bigints, nested, and everything else as JSON does', () => {
    const value = { at: new Date('2026-11-29T18:00:00.123Z'), id: 2n ** 70n, list: [new Date(0), -5n, 'x', 1.5, null, true], nested: { ok: 'yes' } }
    const text = cacheSerializer.serialize(value)
    expect(typeof text).toBe('string')
    const back = cacheSerializer.deserialize(text) as typeof value
    expect(back).toEqual(value)
    expect(back.at).toBeInstanceOf(Date)
    expect(back.at.toISOString()).toBe('2026-11-29T18:00:00.123Z')
    expect(back.id).toBe(1180591620717411303424n)
  })

  it('keeps an invalid Date invalid, and a plain object that looks like nothing special as it is', () => {
    const back = cacheSerializer.deserialize(cacheSerializer.serialize({ bad: new Date(Number.NaN), plain: { v: 1 } })) as { bad: Date; plain: object }
    expect(back.bad).toBeInstanceOf(Date)
    expect(Number.isNaN(back.bad.getTime())).toBe(true)
    expect(back.plain).toEqual({ v: 1 })
  })

  it('reads a value with no Date or bigint as JSON does, and a string that merely contains the tag as it was', () => {
    expect(cacheSerializer.deserialize(cacheSerializer.serialize({ greeting: 'Hello', n: [1, null] }))).toEqual({ greeting: 'Hello', n: [1, null] })
    const tricky = { note: 'a "$fw" in a string', at: new Date(0) }
    expect(cacheSerializer.deserialize(cacheSerializer.serialize(tricky))).toEqual(tricky)
    expect(cacheSerializer.deserialize(cacheSerializer.serialize({ note: '{"$fw":"date","v":null}' }))).toEqual({ note: '{"$fw":"date","v":null}' })
  })
})
