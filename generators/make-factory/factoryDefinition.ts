/** What a factory's definition says for a table's columns: its lines, and the context they use. */
export interface FactoryDefinition {
  /** The lines inside `({ … })`, each indented by two spaces. */
  lines: string[]
  /** What the definition takes from the context: `{ faker }`, `{ faker, sequence }`, or nothing. */
  context: string
}

/** Columns the model fills (timestamps) or soft deletes clear: a fake value would only be overwritten or wrong. */
const MODEL_FILLED = new Set(['created_at', 'updated_at', 'deleted_at'])

/** Fake text by the column's name, for a column of strings: the first pattern that matches wins. */
const BY_NAME: [RegExp, string][] = [
  [/(^|_)email$/, "faker.internet.exampleEmail().toLowerCase().replace('@', `.${sequence}@`)"],
  [/^first_name$/, 'faker.person.firstName()'],
  [/^last_name$/, 'faker.person.lastName()'],
  [/^(user_?name|login)$/, 'faker.internet.username()'],
  [/(^|_)name$/, 'faker.person.fullName()'],
  [/(^|_)(title|subject|headline)$/, 'faker.lorem.sentence()'],
  [/(^|_)slug$/, 'faker.lorem.slug()'],
  [/^(body|content|text)$/, 'faker.lorem.paragraphs(2)'],
  [/(^|_)(description|summary|excerpt|bio)$/, 'faker.lorem.sentence()'],
  [/(^|_)(url|website|link)$/, 'faker.internet.url()'],
  [/(^|_)phone(_number)?$/, 'faker.phone.number()'],
  [/(^|_)uuid$/, 'faker.string.uuid()'],
]

/** Fake values by the column's type, as database/schema.d.ts writes it (without `| null`). */
const BY_TYPE: Record<string, string> = {
  string: 'faker.lorem.words(3)',
  boolean: 'faker.datatype.boolean()',
  number: 'faker.number.int({ max: 1000 })',
  'number | string': 'faker.number.int({ max: 1000 })',
  Int8: 'faker.number.int({ max: 1000 })',
  Numeric: 'faker.number.float({ max: 1000, fractionDigits: 2 })',
  Timestamp: 'faker.date.recent()',
  DateString: 'faker.date.past().toISOString().slice(0, 10)',
  JsonValue: '{}',
  Buffer: 'Buffer.from(faker.string.alphanumeric(16))',
}

/**
 * A factory's definition for a table's columns as database/schema.d.ts types them (`columns`: name → type, `types`:
 * the file's named types, for enums): a fake value for each column by its name (email, name, title, body, url…), else
 * by its type (booleans, dates, numbers, strings). Left out, with a comment line that names them: the columns the
 * database fills (`Generated<…>`: keys, defaults) and foreign keys (`…_id`, set by `.for(row)`); left out silently:
 * `created_at`, `updated_at` and `deleted_at`, and columns the database computes.
 *
 * @example
 * ```ts
 * factoryDefinition(new Map([['id', 'Generated<number>'], ['title', 'string']]), new Map()).lines
 * // ['  title: faker.lorem.sentence(),', '  // The database fills id (a key, or a default): .state({ … }) sets it.']
 * ```
 */
export function factoryDefinition(columns: ReadonlyMap<string, string>, types: ReadonlyMap<string, string>): FactoryDefinition {
  const lines: string[] = []
  const filled: string[] = []
  const foreignKeys: string[] = []
  const unknown: string[] = []
  for (const [column, declared] of columns) {
    if (MODEL_FILLED.has(column) || declared.startsWith('GeneratedAlways<')) continue
    if (declared.startsWith('Generated<')) filled.push(column)
    else if (/_id$/.test(column)) foreignKeys.push(column)
    else {
      const value = fakeValue(column, declared.replace(/ \| null$/, ''), types)
      if (value === undefined) unknown.push(column)
      else lines.push(`  ${propertyName(column)}: ${value},`)
    }
  }
  if (foreignKeys.length > 0) {
    lines.push(`  // ${foreignKeys.join(', ')}: the row${foreignKeys.length === 1 ? ' it belongs' : 's they belong'} to, set by .for(row) or .for(OtherFactory) through the model's belongsTo relation.`)
  }
  if (filled.length > 0) lines.push(`  // The database fills ${list(filled)} (a key, or a default): .state({ … }) sets ${filled.length === 1 ? 'it' : 'them'}.`)
  if (unknown.length > 0) lines.push(`  // ${list(unknown)}: of a type Fw makes no fake value for; give ${unknown.length === 1 ? 'it one' : 'them one'} here.`)
  const text = lines.join('\n')
  const uses = ['faker', 'sequence'].filter((name) => new RegExp(`\\b${name}\\.|\\$\\{${name}\\}`).test(text))
  return { lines, context: uses.length === 0 ? '' : `{ ${uses.join(', ')} }` }
}

/** A fake value's expression for a column (its type without `| null`), or undefined for a type with none. */
function fakeValue(column: string, type: string, types: ReadonlyMap<string, string>): string | undefined {
  if (type.endsWith('[]')) return '[]'
  if (type === 'string') {
    const byName = BY_NAME.find(([pattern]) => pattern.test(column))
    if (byName) return byName[1]
  }
  if (BY_TYPE[type] !== undefined) return BY_TYPE[type]
  // A PostgreSQL enum: one of its labels.
  const labels = types.get(type)
  if (labels !== undefined && labels !== 'never' && /^'/.test(labels)) return `faker.helpers.arrayElement([${labels.split(' | ').join(', ')}] as const)`
  return undefined
}

/** `id`, `id and views`, `id, views and status`. */
function list(names: string[]): string {
  return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
}

function propertyName(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : `'${name.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`
}
