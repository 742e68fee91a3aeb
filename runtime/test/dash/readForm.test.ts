import { describe, expect, it } from 'vitest'
import type { Column, Table } from '../../src/dash/introspect.js'
import { editableColumns, fieldName, formInput, parseValue, readForm } from '../../src/dash/readForm.js'

const column = (name: string, kind: Column['kind'], extra: Partial<Column> = {}): Column => ({
  name,
  type: kind,
  kind,
  nullable: false,
  hasDefault: false,
  autoIncrement: false,
  maxLength: undefined,
  ...extra,
})

const posts: Table = {
  name: 'posts',
  isView: false,
  columns: [
    column('id', 'integer', { autoIncrement: true }),
    column('title', 'string', { maxLength: 5 }),
    column('body', 'text', { nullable: true }),
    column('views', 'integer', { hasDefault: true }),
    column('published', 'boolean', { hasDefault: true }),
    column('due', 'datetime', { nullable: true }),
    column('avatar', 'binary', { nullable: true }),
  ],
  secret: ['password_hash'],
  requiredSecret: [],
  key: undefined,
  managed: new Set(['id']),
  readOnly: false,
}

describe('readForm', () => {
  it('edits every column but managed and binary ones, under fields[name]', () => {
    expect(editableColumns(posts).map(fieldName)).toEqual(['fields[title]', 'fields[body]', 'fields[views]', 'fields[published]', 'fields[due]'])
  })

  it('types the values, leaves defaults to the database when creating, and names what is wrong', () => {
    const form = readForm(posts, { 'fields[title]': ['first', 'Hi'], 'fields[body]': '', 'fields[due]': '2030-01-02T03:04', 'fields[password_hash]': 'x' }, true)
    expect(form).toEqual({
      values: { title: 'Hi', body: null, due: new Date('2030-01-02T03:04:00Z') },
      input: { title: 'Hi', body: '', views: '', published: '', due: '2030-01-02T03:04' },
      errors: {},
    })
    expect(readForm(posts, { 'fields[title]': 'too long', 'fields[views]': '' }, false).errors).toEqual({
      title: 'Use at most 5 characters (this has 8).',
      views: 'This field is required.',
      published: 'This field is required.',
    })
    expect(readForm(posts, 'not a form', true).errors).toEqual({ title: 'This field is required.' })
  })
})

describe('parseValue', () => {
  it.each([
    [column('n', 'integer'), '42', { value: 42 }],
    [column('n', 'integer'), '9007199254740993', { value: '9007199254740993' }],
    [column('n', 'integer'), '4.2', { error: 'Enter a whole number, such as 42.' }],
    [column('n', 'number'), '3.14', { value: 3.14 }],
    [column('n', 'number'), 'pi', { error: 'Enter a number, such as 3.14.' }],
    [column('b', 'boolean'), '1', { value: true }],
    [column('b', 'boolean'), '0', { value: false }],
    [column('b', 'boolean'), 'yes', { error: 'Choose yes or no.' }],
    [column('d', 'date'), '2024-02-29', { value: '2024-02-29' }],
    [column('d', 'date'), '2024-13-45', { error: 'Enter a date as YYYY-MM-DD.' }],
    [column('t', 'datetime'), '2024-02-29 10:11:12', { value: new Date('2024-02-29T10:11:12Z') }],
    [column('t', 'datetime'), '2024-02-29T10:11:12.345', { value: new Date('2024-02-29T10:11:12.345Z') }],
    [column('j', 'json'), '{"a": 1}', { value: '{"a": 1}' }],
    [column('j', 'json'), '{a', { error: 'Enter valid JSON, such as {"key": "value"}.' }],
  ])('%# %s', (target, text, expected) => {
    expect(parseValue(target, text)).toEqual(expected)
  })
})

describe('formInput', () => {
  it('gives the stored row as the edit form shows it', () => {
    const row = { id: 1, title: 'Hi', body: null, views: 3, published: true, due: new Date('2030-01-02T03:04:05.678Z'), avatar: new Uint8Array(2) }
    expect(formInput(posts, row)).toEqual({ title: 'Hi', body: '', views: '3', published: '1', due: '2030-01-02T03:04:05' })
    expect(formInput(posts, { ...row, published: 0, due: '2030-01-02 03:04:05.5' })).toMatchObject({ published: '0', due: '2030-01-02T03:04:05' })
  })

  it('gives a json column its JSON text, a string with its quotes, so that the form sends back JSON', () => {
    const notes: Table = { ...posts, columns: [column('meta', 'json', { nullable: true })], managed: new Set() }
    expect(formInput(notes, { meta: { tags: ['a'] } })).toEqual({ meta: '{"tags":["a"]}' })
    expect(formInput(notes, { meta: 'hello' })).toEqual({ meta: '"hello"' })
    expect(formInput(notes, { meta: 5 })).toEqual({ meta: '5' })
    expect(readForm(notes, { 'fields[meta]': '"hello"' }, false).values).toEqual({ meta: '"hello"' })
  })
})
