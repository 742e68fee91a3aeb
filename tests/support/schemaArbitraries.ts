/**
 * fast-check arbitraries from the JSON Schemas of an OpenAPI 3.1 document: values a schema accepts (`valid`) and
 * values it refuses (`invalid`), for the document-only fuzz in apiFuzz.ts. Covers the JSON Schema that zod,
 * valibot and arktype write: `$ref` into the document, `anyOf`/`oneOf`, `const`/`enum`, nullable type lists,
 * string lengths, patterns and formats, number bounds, arrays and objects with required properties.
 *
 * ```ts
 * const schemas = new SchemaArbitraries(document)
 * fc.sample(schemas.valid(operation.requestBody.content['application/json'].schema), 10)
 * ```
 */
import fc from 'fast-check'

export type Schema = Record<string, any>

/** What a JSON value is, in JSON Schema's words. */
function jsonType(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (Number.isInteger(value)) return 'integer'
  return typeof value
}

/** A simple reading of `format: email` (the document's own `pattern`, when there is one, is stricter). */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export class SchemaArbitraries {
  constructor(private readonly document: Schema) {}

  /** The schema a `$ref` names, followed to the end; the schema itself otherwise. */
  resolve(schema: Schema): Schema {
    let current = schema
    for (let hops = 0; typeof current.$ref === 'string'; hops++) {
      if (hops > 20 || !current.$ref.startsWith('#/')) throw new Error(`Cannot follow $ref ${current.$ref}`)
      let target: any = this.document
      for (const part of current.$ref.slice(2).split('/')) target = target?.[part.replace(/~1/g, '/').replace(/~0/g, '~')]
      if (!target) throw new Error(`$ref ${current.$ref} names nothing in the document`)
      const { $ref: _ref, ...rest } = current
      current = Object.keys(rest).length > 0 ? { ...target, ...rest } : target
    }
    return current
  }

  /** The JSON types a schema allows (none listed: whatever its keywords say, else any). */
  types(schema: Schema): string[] {
    const s = this.resolve(schema)
    if (Array.isArray(s.type)) return s.type
    if (typeof s.type === 'string') return [s.type]
    if (s.properties) return ['object']
    if (s.items) return ['array']
    return []
  }

  /** Values the schema accepts. */
  valid(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
    const s = this.resolve(schema)
    if ('const' in s) return fc.constant(s.const)
    if (Array.isArray(s.enum)) return fc.constantFrom(...s.enum)
    const choices = s.anyOf ?? s.oneOf
    if (Array.isArray(choices)) return fc.oneof(...choices.map((choice: Schema) => this.valid(choice, depth + 1)))
    if (Array.isArray(s.allOf)) return this.valid(mergeAll(s.allOf.map((part: Schema) => this.resolve(part)), s), depth)
    const types = this.types(s)
    if (types.length > 1) return fc.oneof(...types.map((type) => this.valid({ ...s, type }, depth)))
    switch (types[0]) {
      case 'null':
        return fc.constant(null)
      case 'boolean':
        return fc.boolean()
      case 'integer':
        return fc.integer({ min: Math.ceil(lowest(s) ?? -1_000_000), max: Math.floor(highest(s) ?? 1_000_000) })
      case 'number':
        return fc.double({ min: lowest(s) ?? -1e6, max: highest(s) ?? 1e6, noNaN: true, noDefaultInfinity: true, minExcluded: s.exclusiveMinimum !== undefined, maxExcluded: s.exclusiveMaximum !== undefined })
      case 'string':
        return this.string(s)
      case 'array': {
        const minLength = s.minItems ?? 0
        const items = depth > 3 ? fc.constant(null) : this.valid(s.items ?? {}, depth + 1)
        return fc.array(items, { minLength, maxLength: Math.max(minLength, Math.min(s.maxItems ?? 3, 3)) })
      }
      case 'object':
        return this.object(s, depth)
      default:
        return fc.jsonValue({ maxDepth: 2 })
    }
  }

  /**
   * Values the schema refuses, each with what makes it wrong; undefined when none can be made (a schema that
   * accepts anything). For an object: not an object at all, a required property left out, a property of the
   * wrong type, a string too short or off its pattern, a number out of bounds.
   */
  invalid(schema: Schema): fc.Arbitrary<{ value: unknown; why: string }> | undefined {
    const s = this.resolve(schema)
    const types = this.types(s)
    const options: fc.Arbitrary<{ value: unknown; why: string }>[] = []
    const wrong = wrongTypeValue(types)
    if (wrong !== undefined) options.push(fc.constant({ value: wrong, why: `a ${jsonType(wrong)} where the schema wants ${types.join(' or ')}` }))
    if (types.length === 1 && types[0] === 'object') {
      options.push(fc.constantFrom<unknown>([null, null], 42, 'text', null).map((value) => ({ value, why: 'a body that is not an object' })))
      const properties: Record<string, Schema> = s.properties ?? {}
      for (const field of s.required ?? []) {
        options.push(this.valid(s).map((value) => ({ value: omit(value, field), why: `required ${field} left out` })))
      }
      for (const [field, property] of Object.entries(properties)) {
        for (const bad of this.refusedScalars(property)) {
          options.push(this.valid(s).map((value) => ({ value: { ...(value as object), [field]: bad.value }, why: `${field}: ${bad.why}` })))
        }
      }
    } else {
      options.push(...this.refusedScalars(s).map((bad) => fc.constant(bad)))
    }
    return options.length > 0 ? fc.oneof(...options) : undefined
  }

  /** Scalars a property's schema refuses, each with the reason: the wrong type, too short, off the pattern, out of bounds. */
  refusedScalars(schema: Schema): { value: unknown; why: string }[] {
    const s = this.resolve(schema)
    if (s.anyOf || s.oneOf || s.allOf || 'const' in s) return []
    const types = this.types(s)
    const refused: { value: unknown; why: string }[] = []
    const wrong = wrongTypeValue(types)
    if (wrong !== undefined) refused.push({ value: wrong, why: `a ${jsonType(wrong)} where the schema wants ${types.join(' or ')}` })
    if (types.length === 1 && types[0] === 'string') {
      if (s.minLength > 0) refused.push({ value: 'x'.repeat(s.minLength - 1), why: `shorter than ${s.minLength}` })
      if (s.maxLength !== undefined && s.maxLength < 10_000) refused.push({ value: 'x'.repeat(s.maxLength + 1), why: `longer than ${s.maxLength}` })
      if (typeof s.pattern === 'string') {
        const pattern = new RegExp(s.pattern, 'u')
        const off = ['', ' ', 'x', 'not matching', '0@com', '-1', '../..', '%'].find((text) => !pattern.test(text) && text.length >= (s.minLength ?? 0))
        if (off !== undefined) refused.push({ value: off, why: `${JSON.stringify(off)} off the pattern ${s.pattern}` })
      }
      if (s.format === 'email' && !s.pattern) refused.push({ value: 'not an email', why: 'not an email address' })
    }
    if (types.length === 1 && (types[0] === 'integer' || types[0] === 'number')) {
      if (s.minimum !== undefined) refused.push({ value: s.minimum - 1, why: `below ${s.minimum}` })
      if (s.maximum !== undefined) refused.push({ value: s.maximum + 1, why: `above ${s.maximum}` })
      if (types[0] === 'integer') refused.push({ value: 1.5, why: 'not an integer' })
    }
    if (Array.isArray(s.enum)) {
      const outside = ['not one of them', 12345].find((value) => !s.enum.includes(value))
      if (outside !== undefined) refused.push({ value: outside, why: `not one of ${JSON.stringify(s.enum)}` })
    }
    return refused
  }

  private object(s: Schema, depth: number): fc.Arbitrary<unknown> {
    const properties: Record<string, Schema> = s.properties ?? {}
    const required: string[] = s.required ?? []
    const shape: Record<string, fc.Arbitrary<unknown>> = {}
    for (const [field, property] of Object.entries(properties)) shape[field] = depth > 3 ? fc.constant(null) : this.valid(property, depth + 1)
    for (const field of required) shape[field] ??= fc.jsonValue({ maxDepth: 1 })
    return fc.record(shape, { requiredKeys: required })
  }

  private string(s: Schema): fc.Arbitrary<string> {
    const min = s.minLength ?? 0
    const max = s.maxLength ?? Math.max(min, 40)
    const length = (text: string) => [...text].length >= min && [...text].length <= max
    const pattern = typeof s.pattern === 'string' ? new RegExp(s.pattern, 'u') : undefined
    const format = formatArbitrary(s.format)
    let source: fc.Arbitrary<string>
    if (format) source = format
    else if (pattern) source = patternArbitrary(pattern, min, max)
    else source = fc.oneof(fc.string({ minLength: min, maxLength: Math.min(max, min + 30) }), fc.string({ minLength: min, maxLength: Math.min(max, min + 30), unit: 'grapheme' }))
    return source.filter((text) => length(text) && (!pattern || pattern.test(text)) && (s.format !== 'email' || EMAIL.test(text)))
  }
}

function formatArbitrary(format: unknown): fc.Arbitrary<string> | undefined {
  switch (format) {
    case 'email':
      // Addresses a person types, with a dot in the domain: fast-check's RFC forms include `a@b` and quoted parts.
      return fc.tuple(fc.stringMatching(/^[a-z0-9][a-z0-9._+-]{0,15}$/), fc.stringMatching(/^[a-z0-9]{1,12}\.[a-z]{2,6}$/))
        .filter(([local]) => !local.endsWith('.') && !local.includes('..'))
        .map(([local, domain]) => `${local}@${domain}`)
    case 'uuid':
      return fc.uuid()
    case 'date-time':
      return fc.date({ min: new Date('1970-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((date) => date.toISOString())
    case 'date':
      return fc.date({ min: new Date('1970-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10))
    case 'uri':
      return fc.webUrl()
    default:
      return undefined
  }
}

/** Strings of a pattern: fast-check's own when it can read the pattern, else strings that happen to match. */
function patternArbitrary(pattern: RegExp, min: number, max: number): fc.Arbitrary<string> {
  try {
    return fc.stringMatching(pattern)
  } catch {
    return fc.string({ minLength: min, maxLength: Math.min(max, min + 30) })
  }
}

/** A value of a JSON type that the types do not allow; undefined when they allow every type. */
function wrongTypeValue(types: string[]): unknown {
  if (types.length === 0) return undefined
  const allowed = new Set(types.includes('number') ? [...types, 'integer'] : types)
  return [12345, 'text', true, null, [1], { a: 1 }].find((value) => !allowed.has(jsonType(value)) && !(jsonType(value) === 'integer' && allowed.has('number')))
}

function lowest(s: Schema): number | undefined {
  return s.minimum ?? (typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + (s.type === 'integer' ? 1 : 0) : undefined)
}

function highest(s: Schema): number | undefined {
  return s.maximum ?? (typeof s.exclusiveMaximum === 'number' ? s.exclusiveMaximum - (s.type === 'integer' ? 1 : 0) : undefined)
}

function omit(value: unknown, field: string): unknown {
  const { [field]: _left, ...rest } = value as Record<string, unknown>
  return rest
}

function mergeAll(parts: Schema[], outer: Schema): Schema {
  const { allOf: _parts, ...rest } = outer
  const merged: Schema = { ...rest }
  for (const part of parts) {
    Object.assign(merged, { ...part, properties: { ...merged.properties, ...part.properties }, required: [...(merged.required ?? []), ...(part.required ?? [])] })
  }
  return merged
}
