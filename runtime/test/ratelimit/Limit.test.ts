import { describe, expect, it } from 'vitest'
import { Limit } from '../../src/ratelimit/Limit.js'

describe('Limit', () => {
  it('says how many requests in how many seconds, per key', () => {
    const cases: [Limit, number, number][] = [
      [Limit.perSecond(10), 10, 1],
      [Limit.perSecond(10, 5), 10, 5],
      [Limit.perMinute(60), 60, 60],
      [Limit.perMinute(60, 2), 60, 120],
      [Limit.perMinutes(5, 100), 100, 300],
      [Limit.perHour(1000), 1000, 3600],
      [Limit.perDay(3, 2), 3, 172_800],
    ]
    for (const [limit, maxAttempts, decaySeconds] of cases) {
      expect({ maxAttempts: limit.maxAttempts, decaySeconds: limit.decaySeconds, key: limit.key, unlimited: limit.unlimited }).toEqual({
        maxAttempts,
        decaySeconds,
        key: '',
        unlimited: false,
      })
    }
    expect(Limit.perMinute(5).by(42).key).toBe('42')
    expect(Limit.perMinute(5).by(undefined).key).toBe('')
    expect(Limit.none().unlimited).toBe(true)
  })

  it('refuses a count or a window that cannot be, at the call', () => {
    expect(() => Limit.perMinute(0)).toThrow('Limit.perMinute(): the number of requests is a whole number from 1, got 0')
    expect(() => Limit.perHour(2.5)).toThrow('Limit.perHour(): the number of requests is a whole number from 1, got 2.5')
    expect(() => Limit.perSecond(5, 0)).toThrow('Limit.perSecond(): the window is a number above 0, got 0')
    expect(() => Limit.perHour(5, -1)).toThrow('Limit.perHour(): the window is a number above 0, got -1')
  })
})
