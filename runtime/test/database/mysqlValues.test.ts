import type { CompiledQuery } from 'kysely'
import { describe, expect, it } from 'vitest'
import { MYSQL_VALUE_OPTIONS, mysqlTypeCast, toMysqlParameter, withMysqlParameters } from '../../src/database/mysqlValues.js'

describe('toMysqlParameter', () => {
  it.each<[unknown, unknown]>([
    [{ a: [1, { b: null }] }, '{"a":[1,{"b":null}]}'],
    [[1, 'two'], '[1,"two"]'],
    [[], '[]'],
    [true, true],
    ['text', 'text'],
    [42, 42],
    [42n, 42n],
    [null, null],
  ])('%o → %o', (value, written) => {
    expect(toMysqlParameter(value)).toEqual(written)
  })

  it('leaves Dates and bytes to mysql2, and refuses a Date that is not a time', () => {
    const at = new Date('2024-02-29T12:34:56.789Z')
    expect(toMysqlParameter(at)).toBe(at)
    const bytes = Buffer.from('hi')
    expect(toMysqlParameter(bytes)).toBe(bytes)
    expect(() => toMysqlParameter(new Date('nope'))).toThrow(new TypeError('Invalid Date given as a query parameter: MySQL would store NULL'))
  })
})

describe('withMysqlParameters', () => {
  const query = (parameters: unknown[]) => ({ sql: 'select ?', parameters, query: {} }) as unknown as CompiledQuery

  it('gives the same query when no parameter needs a change', () => {
    const plain = query(['a', 1, null, true, new Date(0), Buffer.from('x'), 2n])
    expect(withMysqlParameters(plain)).toBe(plain)
  })

  it('writes objects and arrays as JSON, and throws on an invalid Date', () => {
    expect(withMysqlParameters(query(['a', { b: 1 }, [2]])).parameters).toEqual(['a', '{"b":1}', '[2]'])
    expect(() => withMysqlParameters(query([new Date(Number.NaN)]))).toThrow(TypeError)
  })
})

describe('mysqlTypeCast', () => {
  const field = (type: string, length: number, text: string | null) => ({ type, length, string: () => text }) as never
  const next = () => 'as mysql2 reads it'

  it('reads a tinyint(1) as a boolean, and null as null', () => {
    expect(mysqlTypeCast(field('TINY', 1, '1'), next)).toBe(true)
    expect(mysqlTypeCast(field('TINY', 1, '0'), next)).toBe(false)
    expect(mysqlTypeCast(field('TINY', 1, null), next)).toBe(null)
  })

  it('leaves any other column to mysql2, a wider tinyint among them', () => {
    expect(mysqlTypeCast(field('TINY', 4, '5'), next)).toBe('as mysql2 reads it')
    expect(mysqlTypeCast(field('LONG', 1, '1'), next)).toBe('as mysql2 reads it')
  })

  it('asks mysql2 for UTC times, dates as text and exact bigints', () => {
    expect(MYSQL_VALUE_OPTIONS).toMatchObject({ timezone: 'Z', dateStrings: ['DATE'], supportBigNumbers: true, bigNumberStrings: false })
  })
})
