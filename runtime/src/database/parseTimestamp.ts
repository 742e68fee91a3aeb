/**
 * `2024-01-02 03:04:05.678`, with a `T` or a space, optional seconds and fraction, an optional `Z` or
 * offset (`+00`, `+05:30`, `-08:00:00`), and PostgreSQL's ` BC`; a date alone is its midnight.
 */
const TIMESTAMP = /^(\d{4,6})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2}){0,2})?( BC)?$/i

/**
 * The instant a stored timestamp names, as a `Date`: the text SQLite keeps (`CURRENT_TIMESTAMP`'s
 * `YYYY-MM-DD HH:MM:SS`, Fw's `YYYY-MM-DD HH:MM:SS.SSS`, ISO 8601 with its `T` and `Z`) and the text
 * PostgreSQL sends for `timestamp` and `timestamptz`. Text without an offset is UTC, as Fw stores it.
 * Fractions past the millisecond are cut. Anything else (`infinity`, a typo) is `undefined`.
 *
 * @example
 * ```ts
 * parseTimestamp('2024-01-02 03:04:05.678') // 2024-01-02T03:04:05.678Z
 * parseTimestamp('2024-01-02 03:04:05.678901+05:30') // 2024-01-01T21:34:05.678Z
 * ```
 */
export function parseTimestamp(text: string): Date | undefined {
  const match = TIMESTAMP.exec(text)
  if (!match) return undefined
  const [, year, month, day, hour = '0', minute = '0', second = '0', fraction = '', zone, bc] = match
  const date = new Date(Date.UTC(2000, Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second), Number(fraction.slice(0, 3).padEnd(3, '0'))))
  // Date.UTC reads years 0-99 as 1900-1999, so the year is set on its own; 1 BC is year 0.
  date.setUTCFullYear(bc ? 1 - Number(year) : Number(year))
  if (date.getUTCMonth() !== Number(month) - 1 || Number.isNaN(date.getTime())) return undefined
  return zone && zone.toUpperCase() !== 'Z' ? new Date(date.getTime() - offsetMs(zone)) : date
}

/** `+05:30` → 19 800 000; `-08` → -28 800 000; `+00:53:28` → 3 208 000. */
function offsetMs(zone: string): number {
  const digits = zone.slice(1).replaceAll(':', '')
  const seconds = Number(digits.slice(0, 2)) * 3600 + Number(digits.slice(2, 4) || 0) * 60 + Number(digits.slice(4, 6) || 0)
  return (zone.startsWith('-') ? -seconds : seconds) * 1000
}
