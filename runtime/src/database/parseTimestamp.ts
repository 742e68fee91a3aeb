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
  return inUtcForm(text) ?? anyForm(text)
}

/**
 * The forms nearly every value has, read without a regular expression or a string made on the way (a
 * timestamp in about 100 ns, not a microsecond): `YYYY-MM-DD HH:MM:SS` (or `T`), an optional fraction and
 * an optional `Z`, `+00` or `+00:00`, years 100 and later. Anything else is left to `anyForm`.
 */
function inUtcForm(text: string): Date | undefined {
  const length = text.length
  if (length < 19) return undefined
  const year = number(text, 0, 4)
  const month = number(text, 5, 2)
  const day = number(text, 8, 2)
  const hour = number(text, 11, 2)
  const minute = number(text, 14, 2)
  const second = number(text, 17, 2)
  const separator = text.charCodeAt(10)
  if (
    text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || (separator !== 32 && separator !== 84) || text.charCodeAt(13) !== 58 ||
    text.charCodeAt(16) !== 58 || year < 100 || month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59
  ) {
    return undefined
  }
  let index = 19
  let ms = 0
  if (text.charCodeAt(19) === 46) {
    for (let scale = 100; ++index < length; scale /= 10) {
      const digit = text.charCodeAt(index) - 48
      if (digit < 0 || digit > 9) break
      if (scale >= 1) ms += digit * scale
    }
  }
  if (!isUtc(text, index)) return undefined
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second, ms))
  // 2023-02-29 would be March 1st.
  return date.getUTCDate() === day ? date : undefined
}

/** The digits of text[from, from + count) as a number; -1 when one is not a digit. */
function number(text: string, from: number, count: number): number {
  let value = 0
  for (let index = from; index < from + count; index++) {
    const digit = text.charCodeAt(index) - 48
    if (digit < 0 || digit > 9) return -1
    value = value * 10 + digit
  }
  return value
}

/** Whether text from `index` is nothing, `Z`, `+00` or `+00:00`. */
function isUtc(text: string, index: number): boolean {
  const rest = text.length - index
  if (rest === 0) return true
  if (rest === 1) return text.charCodeAt(index) === 90
  if (text.charCodeAt(index) !== 43 || text.charCodeAt(index + 1) !== 48 || text.charCodeAt(index + 2) !== 48) return false
  return rest === 3 || (rest === 6 && text.charCodeAt(index + 3) === 58 && text.charCodeAt(index + 4) === 48 && text.charCodeAt(index + 5) === 48)
}

function anyForm(text: string): Date | undefined {
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
