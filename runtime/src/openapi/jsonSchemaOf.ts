import { createRequire } from 'node:module'
import type { StandardSchemaV1 } from '@standard-schema/spec'

/** A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) as a plain object. */
export type JsonSchema = Record<string, unknown>

/** What stands in the document for a schema that offers no JSON Schema: anything, and a note that says why. */
export const NOT_CONVERTIBLE: JsonSchema = Object.freeze({
  description: 'This schema offers no JSON Schema (Standard JSON Schema): the document cannot describe it.',
  'x-fw-schema': 'not convertible',
})

/** A valibot schema where `@valibot/to-json-schema` is not installed: the note says what to install. */
const VALIBOT_CONVERTER_MISSING: JsonSchema = Object.freeze({
  description: 'A valibot schema: npm install @valibot/to-json-schema, and the document describes it.',
  'x-fw-schema': 'not convertible',
})

interface JsonSchemaConverter {
  input?: (options: { target: string }) => JsonSchema
  output?: (options: { target: string }) => JsonSchema
}

type ValibotToJsonSchema = (schema: unknown, config: { target: string; typeMode: 'input' | 'output' }) => JsonSchema

/**
 * The JSON Schema of a Standard Schema value through Standard JSON Schema (`~standard.jsonSchema`, which zod 4 and
 * arktype have natively), and of a valibot schema through `@valibot/to-json-schema`, valibot's own converter: `input`
 * for what a client sends (a `.default()` field is optional), `output` for what a route answers. Undefined when the
 * schema has no converter or its converter refuses it (zod and valibot refuse a date, which JSON cannot carry); this
 * function _never_ throws, so that one schema never breaks the whole document.
 *
 * @example
 * ```ts
 * jsonSchemaOf(z.object({ title: z.string() }), 'input') // { type: 'object', properties: { title: { type: 'string' } }, … }
 * ```
 */
export function jsonSchemaOf(schema: StandardSchemaV1, io: 'input' | 'output'): JsonSchema | undefined {
  const standard = schema['~standard'] as StandardSchemaV1['~standard'] & { jsonSchema?: JsonSchemaConverter }
  try {
    const convert = standard.jsonSchema?.[io]
    if (typeof convert === 'function') return withoutDialect(convert.call(standard.jsonSchema, { target: 'draft-2020-12' }))
    if (standard.vendor === 'valibot') {
      const toJsonSchema = valibotConverter()
      return toJsonSchema && withoutDialect(toJsonSchema(schema, { target: 'draft-2020-12', typeMode: io }))
    }
  } catch {
    // The converter refused this schema: the document says it cannot describe it.
  }
  return undefined
}

/** What the document says instead of a schema it cannot describe, and why. */
export function notConvertible(schema: StandardSchemaV1): JsonSchema {
  const valibot = schema['~standard'].vendor === 'valibot' && valibotConverter() === undefined
  return { ...(valibot ? VALIBOT_CONVERTER_MISSING : NOT_CONVERTIBLE) }
}

function withoutDialect({ $schema: _dialect, ...json }: JsonSchema): JsonSchema {
  return json
}

let valibot: ValibotToJsonSchema | null | undefined

/**
 * `toJsonSchema` of `@valibot/to-json-schema`, an optional peer dependency: an application that writes its contracts
 * in valibot installs it beside valibot, whose versions it follows. Loaded on the first valibot schema, with
 * `require` (it ships CommonJS), since building the document is synchronous; null when it is not installed.
 */
function valibotConverter(): ValibotToJsonSchema | undefined {
  if (valibot === undefined) {
    try {
      valibot = (createRequire(import.meta.url)('@valibot/to-json-schema') as { toJsonSchema: ValibotToJsonSchema }).toJsonSchema
    } catch {
      valibot = null
    }
  }
  return valibot ?? undefined
}
