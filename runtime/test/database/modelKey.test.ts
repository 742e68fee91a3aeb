import { describe, expect, it } from 'vitest'
import { modelKey } from '../../src/database/modelKey.js'

describe('modelKey', () => {
  it('takes integer keys the 32-bit column holds, as numbers, and nothing else', () => {
    expect(modelKey('integer', '42')).toBe(42)
    expect(modelKey('integer', 42)).toBe(42)
    expect(modelKey('integer', '-7')).toBe(-7)
    expect(modelKey('integer', '007')).toBe(7)
    expect(modelKey('integer', '2147483647')).toBe(2147483647)
    expect(modelKey('integer', '-2147483648')).toBe(-2147483648)
    for (const bad of ['2147483648', '-2147483649', '99999999999999999999', 'abc', '', ' 1', '1 ', '+1', '1.0', '1.5', '1e3', '0x10', 1.5, Number.NaN, Infinity, null, undefined, {}, []]) {
      expect(modelKey('integer', bad), String(bad)).toBeUndefined()
    }
  })

  it('takes bigint keys in the 64-bit range, as numbers when safe and strings past that', () => {
    expect(modelKey('bigint', '2147483648')).toBe(2147483648)
    expect(modelKey('bigint', '9223372036854775807')).toBe('9223372036854775807')
    expect(modelKey('bigint', 12n)).toBe(12)
    expect(modelKey('bigint', '9223372036854775808')).toBeUndefined()
    expect(modelKey('bigint', '99999999999999999999')).toBeUndefined()
  })

  it('takes uuids in their canonical form, in lower case, and any text for string keys', () => {
    expect(modelKey('uuid', 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11')).toBe('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11')
    expect(modelKey('uuid', 'abc')).toBeUndefined()
    expect(modelKey('uuid', '{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}')).toBeUndefined()
    expect(modelKey('string', 'hello-world')).toBe('hello-world')
    expect(modelKey('string', 5)).toBe('5')
    expect(modelKey('string', null)).toBeUndefined()
    expect(modelKey('string', 'a\0b')).toBeUndefined()
  })
})
