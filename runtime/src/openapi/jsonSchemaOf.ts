import type { StandardSchemaV1 } from '@standard-schema/spec'

/** A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) as a plain object. */
export type JsonSchema = Record<string, unknown>

/** What stands in the document for a schema that offers no JSON Schema: anything, and a note that says why. */
export const NOT_CONVERTIBLE: JsonSchema = Object.freeze({
  description: 'This schema offers no JSON Schema (Standard JSON Schema): the document cannot describe it.',
  'x-fw-schema': 'not convertible',
})

interface JsonSchemaConverter {
  input?: (options: { target: string }) => JsonSchema
  output?: (options: { target: string }) => JsonSchema
}

/**
 * The JSON Schema of a Standard Schema value through Standard JSON Schema (`~standard.jsonSchema`, which zod 4 has
 * natively; valibot and arktype through their own packages): `input` for what a client sends, `output` for what a
 * route answers. Undefined when the schema has no converter or its converter refuses it (zod refuses a `z.date()`,
 * which JSON cannot carry); this function _never_ throws, so that one schema never breaks the whole document.
 */
export function jsonSchemaOf(schema: StandardSchemaV1, io: 'input' | 'output'): JsonSchema | undefined {
  const converter = (schema['~standard'] as { jsonSchema?: JsonSchemaConverter }).jsonSchema
  const convert = converter?.[io]
  if (typeof convert !== 'function') return undefined
  try {
    const { $schema: _dialect, ...json } = convert.call(converter, { target: 'draft-2020-12' })
    return json
  } catch {
    return undefined
  }
}
