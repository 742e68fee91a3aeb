import type { Column, Table } from './introspect.js'

/** What a form submitted, as text by column name (to fill the form again after a mistake). */
export type FormInput = Record<string, string>
/** One message per column that failed its check. */
export type FormErrors = Record<string, string>

/** A submitted row form, read and checked. */
export interface ReadForm {
  /** The values to write, typed for their columns; only the editable columns, never a secret one. */
  values: Record<string, unknown>
  input: FormInput
  errors: FormErrors
}

/**
 * The columns a form shows: all but binary ones and those the database fills itself (see `Table.managed`).
 * Secret columns are not among a table's columns at all, so no form ever carries one.
 */
export function editableColumns(table: Table): Column[] {
  return table.columns.filter((column) => column.kind !== 'binary' && !table.managed.has(column.name))
}

/** The form field of a column: `fields[title]`, so that no column can clash with `_token`. */
export function fieldName(column: Column): string {
  return `fields[${column.name}]`
}

/**
 * Reads a submitted form and checks each editable column's value against its type. An empty field is
 * null for a nullable column; when creating, a column with a default is left to the database; otherwise
 * it is required. Fields of other columns (a forged `fields[password_hash]`) are ignored.
 *
 * @example
 * ```ts
 * const form = readForm(table, request.body(), true)
 * if (Object.keys(form.errors).length === 0) await db.insertInto(table.name).values(form.values).execute()
 * ```
 */
export function readForm(table: Table, body: unknown, creating: boolean): ReadForm {
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {}
  const result: ReadForm = { values: {}, input: {}, errors: {} }
  for (const column of editableColumns(table)) {
    const submitted = fields[fieldName(column)]
    // A field sent twice arrives as a list: the last one wins, as in a browser's form data.
    const text = Array.isArray(submitted) ? String(submitted.at(-1) ?? '') : typeof submitted === 'string' ? submitted : ''
    result.input[column.name] = text
    if (text === '') {
      if (column.nullable) result.values[column.name] = null
      else if (!(creating && (column.hasDefault || column.autoIncrement))) result.errors[column.name] = 'This field is required.'
      continue
    }
    const parsed = parseValue(column, text)
    if ('error' in parsed) result.errors[column.name] = parsed.error
    else result.values[column.name] = parsed.value
  }
  return result
}

/**
 * One submitted value checked against its column's kind: the value to store, or a message for the person.
 *
 * @example
 * ```ts
 * parseValue(column, '42') // { value: 42 } for an integer column
 * parseValue(column, 'many') // { error: 'Enter a whole number, such as 42.' }
 * ```
 */
export function parseValue(column: Column, text: string): { value: unknown } | { error: string } {
  const value = text.trim()
  switch (column.kind) {
    case 'integer':
      if (!/^-?\d+$/.test(value)) return { error: 'Enter a whole number, such as 42.' }
      // Beyond 2^53 the text goes to the database as it is, so no digit is lost.
      return { value: Number.isSafeInteger(Number(value)) ? Number(value) : value }
    case 'number':
      if (!/^-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(value)) return { error: 'Enter a number, such as 3.14.' }
      return { value: Number(value) }
    case 'boolean':
      if (value === '1' || value === '0') return { value: value === '1' }
      return { error: 'Choose yes or no.' }
    case 'date':
      if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value))) return { error: 'Enter a date as YYYY-MM-DD.' }
      return { value }
    case 'datetime': {
      const match = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(:\d{2}(\.\d+)?)?$/.exec(value)
      // In UTC, as the edit form shows stored times (see `formInput`).
      const time = match && new Date(`${match[1]}T${match[2]}${match[3] ?? ''}Z`)
      if (!time || Number.isNaN(time.getTime())) return { error: 'Enter a date and time as YYYY-MM-DD HH:MM:SS.' }
      return { value: time }
    }
    case 'json':
      try {
        JSON.parse(value)
      } catch {
        return { error: 'Enter valid JSON, such as {"key": "value"}.' }
      }
      return { value }
    case 'string':
      if (column.maxLength !== undefined && text.length > column.maxLength) {
        return { error: `Use at most ${column.maxLength} characters (this has ${text.length}).` }
      }
      return { value: text }
    default:
      return { value: text }
  }
}

/**
 * A stored row as the edit form's fields: datetimes in the `datetime-local` format, booleans as `1`/`0`,
 * JSON as text, null as an empty field.
 *
 * @example
 * ```ts
 * rowForm({ table, key, input: formInput(table, row), errors: {} })
 * ```
 */
export function formInput(table: Table, row: Record<string, unknown>): FormInput {
  return Object.fromEntries(editableColumns(table).map((column) => [column.name, formValue(row[column.name], column)]))
}

function formValue(value: unknown, column: Column): string {
  if (value === null || value === undefined) return ''
  if (value instanceof Date) return value.toISOString().slice(0, 19)
  if (column.kind === 'datetime') return String(value).replace(' ', 'T').replace(/\.\d+$/, '').slice(0, 19)
  if (column.kind === 'boolean') return value === true || value === 1 || value === '1' || value === 't' || value === 'true' ? '1' : '0'
  // A JSON string too, so that the form sends back JSON: "text" with its quotes.
  if (column.kind === 'json' || typeof value === 'object') return JSON.stringify(value)
  return String(value)
}
