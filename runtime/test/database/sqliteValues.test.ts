import { describe, expect, it } from 'vitest'
import { columnConversions, convertRows, toSqliteParameter, toSqliteParameters } from '../../src/database/sqliteValues.js'

describe('toSqliteParameter', () => {
  it.each<[unknown, unknown]>([
    [true, 1],
    [false, 0],
    [new Date('2024-02-29T12:34:56.789Z'), '2024-02-29 12:34:56.789'],
    [{ a: [1, { b: null }] }, '{"a":[1,{"b":null}]}'],
    [[1, 'two'], '[1,"two"]'],
    ['text', 'text'],
    [42, 42],
    [42n, 42n],
    [null, null],
  ])('%o → %o', (value, stored) => {
    expect(toSqliteParameter(value)).toEqual(stored)
  })

  it('keeps bytes as they are, and the same array when nothing needs a change', () => {
    const bytes = Buffer.from('hi')
    expect(toSqliteParameter(bytes)).toBe(bytes)
    const plain = ['a', 1, null, bytes]
    expect(toSqliteParameters(plain)).toBe(plain)
    expect(toSqliteParameters(['a', true])).toEqual(['a', 1])
  })
})

describe('columnConversions', () => {
  const convert = (columns: { name: string; type: string | null }[], row: Record<string, unknown>) => {
    const rows = [row]
    convertRows(rows, columnConversions(columns))
    return rows[0]
  }

  it('converts by declared type, whatever its case or size, and leaves expressions and other types alone', () => {
    const columns = [
      { name: 'flag', type: 'BOOLEAN' },
      { name: 'at', type: 'TIMESTAMP(3)' },
      { name: 'on', type: 'date' },
      { name: 'doc', type: 'json' },
      { name: 'total', type: null },
      { name: 'title', type: 'varchar(255)' },
    ]
    expect(convert(columns, { flag: 0, at: '2024-02-29 12:34:56', on: '2024-02-29 00:00:00.000', doc: '"quoted"', total: 1, title: '1' })).toEqual({
      flag: false,
      at: new Date('2024-02-29T12:34:56Z'),
      on: '2024-02-29',
      doc: 'quoted',
      total: 1,
      title: '1',
    })
    expect(columnConversions([{ name: 'id', type: 'INTEGER' }, { name: 'n', type: null }])).toEqual([])
  })

  it('gives decimals as strings, with the scale the column declares', () => {
    const columns = [{ name: 'price', type: 'NUMERIC(10, 2)' }, { name: 'ratio', type: 'decimal' }, { name: 'whole', type: 'numeric(8)' }]
    expect(convert(columns, { price: 19.9, ratio: 0.5, whole: 12 })).toEqual({ price: '19.90', ratio: '0.5', whole: '12' })
    expect(convert(columns, { price: null, ratio: 'n/a', whole: 3n })).toEqual({ price: null, ratio: 'n/a', whole: '3' })
  })

  it('leaves values it cannot read as they are: text that is not JSON, a time that is not one, null', () => {
    const columns = [{ name: 'doc', type: 'json' }, { name: 'at', type: 'datetime' }, { name: 'flag', type: 'bool' }]
    expect(convert(columns, { doc: 'not json', at: 'soon', flag: null })).toEqual({ doc: 'not json', at: 'soon', flag: null })
  })

  it('orders jsonb objects as PostgreSQL does, and converts by the last of two columns of one name', () => {
    expect(convert([{ name: 'doc', type: 'jsonb' }], { doc: '{"bb":1,"a":{"zz":0,"y":[{"ab":1,"b":2}]}}' })).toEqual({ doc: { a: { y: [{ b: 2, ab: 1 }], zz: 0 }, bb: 1 } })
    expect(JSON.stringify(convert([{ name: 'doc', type: 'jsonb' }], { doc: '{"bb":1,"a":2}' }))).toBe('{"doc":{"a":2,"bb":1}}')
    expect(convert([{ name: 'v', type: 'boolean' }, { name: 'v', type: null }], { v: 1 })).toEqual({ v: 1 })
  })
})
