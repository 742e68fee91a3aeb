/**
 * A value that a JSON Schema accepts, for the common shapes a request body has: objects (every property, required
 * or not), strings (with `format: email`, `minLength`, `maxLength`, `pattern` of digits), numbers and integers
 * (with `minimum`/`maximum`), booleans, arrays (`minItems` items, none without it), `enum`, `const`, `default`, `anyOf`/`oneOf` (the
 * first choice) and `$ref` into the document. Enough for the tests' schemas; not a general generator.
 *
 * @example
 * ```ts
 * sampleOf({ type: 'object', properties: { title: { type: 'string' } }, required: ['title'] }, document) // { title: 'sample' }
 * ```
 */
export function sampleOf(schema: any, document: any): unknown {
  if (schema.$ref) return sampleOf(resolve(schema.$ref, document), document)
  if (schema.const !== undefined) return schema.const
  if (schema.default !== undefined) return schema.default
  if (schema.enum) return schema.enum[0]
  const choice = schema.anyOf ?? schema.oneOf
  if (choice) return sampleOf(choice.find((option: any) => option.type !== 'null') ?? choice[0], document)
  const type = Array.isArray(schema.type) ? schema.type.find((name: string) => name !== 'null') : schema.type
  switch (type) {
    case 'object': {
      const value: Record<string, unknown> = {}
      for (const [name, property] of Object.entries(schema.properties ?? {})) value[name] = sampleOf(property, document)
      return value
    }
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => sampleOf(schema.items ?? {}, document))
    case 'string':
      return sampleString(schema)
    case 'integer':
    case 'number':
      return Math.max(schema.minimum ?? 1, Math.min(schema.maximum ?? 1, 1))
    case 'boolean':
      return true
    case 'null':
      return null
    default:
      return 'sample'
  }
}

function sampleString(schema: any): string {
  if (schema.format === 'email') return 'ada@example.com'
  const text = 'sample'.padEnd(schema.minLength ?? 0, 'x')
  const plain = schema.maxLength !== undefined ? text.slice(0, schema.maxLength) : text
  if (schema.pattern === undefined) return plain
  // The first of a few everyday values that the pattern takes: an email address, digits, a word.
  const pattern = new RegExp(schema.pattern, 'u')
  return ['ada@example.com', '42', plain].find((candidate) => pattern.test(candidate)) ?? plain
}

/** A value of the wrong type for a schema: a number for a string, a string for anything else. */
export function wrongTypeFor(schema: any, document: any): unknown {
  const resolved = schema.$ref ? resolve(schema.$ref, document) : schema
  return resolved.type === 'string' ? 12345 : 'not-the-right-type'
}

/** The schema a `#/…` pointer names in the document. */
export function resolve(pointer: string, document: any): any {
  return pointer
    .slice(2)
    .split('/')
    .reduce((node, key) => node[key.replace(/~1/g, '/').replace(/~0/g, '~')], document)
}
