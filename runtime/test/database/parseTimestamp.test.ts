import { describe, expect, it } from 'vitest'
import { parseTimestamp } from '../../src/database/parseTimestamp.js'

describe('parseTimestamp', () => {
  it.each([
    // What SQLite holds: Fw's form, CURRENT_TIMESTAMP's, toISOString()'s, a date alone.
    ['2024-02-29 12:34:56.789', '2024-02-29T12:34:56.789Z'],
    ['2024-02-29 12:34:56', '2024-02-29T12:34:56.000Z'],
    ['2024-02-29T12:34:56.789Z', '2024-02-29T12:34:56.789Z'],
    ['2024-02-29T12:34', '2024-02-29T12:34:00.000Z'],
    ['2024-02-29', '2024-02-29T00:00:00.000Z'],
    // What PostgreSQL sends: microseconds, offsets (timestamptz), early years, BC.
    ['2024-02-29 12:34:56.789999', '2024-02-29T12:34:56.789Z'],
    ['2024-02-29 12:34:56.5+00', '2024-02-29T12:34:56.500Z'],
    ['2024-02-29 12:34:56+00:00', '2024-02-29T12:34:56.000Z'],
    ['2024-02-29 12:34:56+05:30', '2024-02-29T07:04:56.000Z'],
    ['2024-02-29 12:34:56-08', '2024-02-29T20:34:56.000Z'],
    ['1883-11-18 12:00:00+00:53:28', '1883-11-18T11:06:32.000Z'],
    ['0044-03-15 00:00:00', '0044-03-15T00:00:00.000Z'],
    ['0044-03-15 00:00:00 BC', '-000043-03-15T00:00:00.000Z'],
  ])('%s → %s', (text, iso) => {
    expect(parseTimestamp(text)?.toISOString()).toBe(iso)
  })

  it.each(['infinity', '-infinity', '', 'yesterday', '2023-02-29 00:00:00', '2024-02-29 24:00:00', '2024-02-29 12:34:56.7a', '2024-13-01', '1700000000000'])('%j is no timestamp', (text) => {
    expect(parseTimestamp(text)).toBeUndefined()
  })
})
