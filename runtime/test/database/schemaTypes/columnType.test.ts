import { describe, expect, it } from 'vitest'
import { columnType } from '../../../src/database/schemaTypes/columnType.js'
import type { IntrospectedColumn } from '../../../src/database/schemaTypes/introspectSchema.js'

const column = (type: string, extra: Partial<IntrospectedColumn> = {}): IntrospectedColumn => ({
  name: 'c',
  type,
  array: false,
  nullable: false,
  generated: 'no',
  ...extra,
})

describe('columnType', () => {
  it('gives a type Fw knows by name its value form, whatever its case, length or precision, on both databases', () => {
    const cases: [string, string][] = [
      ['boolean', 'boolean'],
      ['BOOL', 'boolean'],
      ['json', 'JsonValue'],
      ['JSONB', 'JsonValue'],
      ['timestamp', 'Timestamp'],
      ['timestamptz', 'Timestamp'],
      ['DATETIME', 'Timestamp'],
      ['timestamp(3) with time zone', 'Timestamp'],
      ['date', 'DateString'],
      ['bigint', 'Int8'],
      ['int8', 'Int8'],
      ['numeric(10, 2)', 'Numeric'],
      ['DECIMAL', 'Numeric'],
      ['integer', 'number'],
      ['double precision', 'number'],
      ['varchar(255)', 'string'],
      ['character varying(40)', 'string'],
      ['uuid', 'string'],
      ['bytea', 'Buffer'],
    ]
    for (const dialect of ['sqlite', 'postgres'] as const) {
      expect(cases.map(([type]) => [type, columnType(column(type), dialect).type])).toEqual(cases)
    }
    expect(columnType(column('timestamptz'), 'sqlite').uses).toBe('Timestamp')
    expect(columnType(column('boolean'), 'sqlite').uses).toBeUndefined()
  })

  it("goes by SQLite's affinity rules for any other declared type, in SQLite's order", () => {
    const cases: [string, string][] = [
      ['BIGINT UNSIGNED', 'number'],
      ['MEDIUMINT', 'number'],
      // "POINT" holds INT: SQLite's own example of the rules' first match.
      ['POINT', 'number'],
      ['NVARCHAR(10)', 'string'],
      ['CLOB', 'string'],
      ['NATIVE CHARACTER(70)', 'string'],
      ['BLOB', 'Buffer'],
      ['', 'unknown'],
      ['REAL', 'number'],
      ['FLOATING POINT', 'number'],
      ['DOUB', 'number'],
      ['MONEY', 'number | string'],
    ]
    expect(cases.map(([type]) => [type, columnType(column(type), 'sqlite').type])).toEqual(cases)
  })

  it('leaves a PostgreSQL type Fw does not know unknown, and types arrays of the ones pg parses', () => {
    expect(columnType(column('interval'), 'postgres').type).toBe('unknown')
    expect(columnType(column('text', { array: true }), 'postgres').type).toBe('string[]')
    expect(columnType(column('jsonb', { array: true }), 'postgres')).toEqual({ type: 'JsonValue[]', uses: 'JsonValue' })
    expect(columnType(column('timestamptz', { array: true }), 'postgres').type).toBe('unknown')
  })

  it('gives a PostgreSQL enum its labels in code-point order, and an array of one the text pg returns', () => {
    expect(columnType(column('mood', { enumLabels: ['sad', 'Zen', 'happy'] }), 'postgres')).toEqual({
      type: '',
      enum: { name: 'mood', labels: ['Zen', 'happy', 'sad'] },
    })
    expect(columnType(column('mood', { enumLabels: ['sad'], array: true }), 'postgres').type).toBe('string')
  })
})
