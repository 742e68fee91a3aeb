import type { StandardSchemaV1 } from '@standard-schema/spec'
import { jsonSchemaOf, type JsonSchema } from '../openapi/jsonSchemaOf.js'
import { ValidationError } from './ValidationError.js'

/** The message of a body that a schema of an object cannot take: under `input`, the value as a whole. */
export const NOT_AN_OBJECT = 'The body must be a JSON object.'

/** Whether each schema takes objects only, decided on its first body that is not one. */
const objectsOnly = new WeakMap<StandardSchemaV1, boolean>()

/**
 * The body a body contract validates, as it came: an object goes to the schema; anything else (`[null,null]`,
 * `42`, `"x"`, `null`, no body at all) is refused with a 422 naming it, `{ input: ['The body must be a JSON
 * object.'] }`, when the schema takes objects only, and is never read as `{}` with its defaults filled in. A
 * schema that declares an array or a primitive body (a top-level `z.array(…)`) gets the body as it is.
 *
 * Which schemas take objects only is decided from their JSON Schema (Standard JSON Schema, as the OpenAPI
 * document reads it), once per schema and only when a body that is not an object arrives: `type: "object"`,
 * or a union whose every branch is one. A schema that offers no JSON Schema is taken to want an object, which
 * is what a body contract almost always is.
 */
export function bodyToValidate(schema: StandardSchemaV1, body: unknown): unknown {
  if (isObject(body)) return body
  let only = objectsOnly.get(schema)
  if (only === undefined) {
    const json = jsonSchemaOf(schema, 'input')
    only = json === undefined || takesObjectsOnly(json, json)
    objectsOnly.set(schema, only)
  }
  if (only) throw new ValidationError({ input: [NOT_AN_OBJECT] })
  return body
}

function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Whether a JSON Schema refuses every value that is not an object (`root` resolves `#/$defs/…` references). */
function takesObjectsOnly(schema: JsonSchema, root: JsonSchema): boolean {
  const { type, anyOf, oneOf, allOf, $ref } = schema as { type?: unknown; anyOf?: JsonSchema[]; oneOf?: JsonSchema[]; allOf?: JsonSchema[]; $ref?: unknown }
  if (type !== undefined) return type === 'object' || (Array.isArray(type) && type.length > 0 && type.every((one) => one === 'object'))
  if (Array.isArray(anyOf ?? oneOf)) return (anyOf ?? oneOf)!.every((branch) => takesObjectsOnly(branch, root))
  if (Array.isArray(allOf)) return allOf.some((part) => takesObjectsOnly(part, root))
  if (typeof $ref === 'string' && $ref.startsWith('#/$defs/')) {
    const target = (root.$defs as Record<string, JsonSchema> | undefined)?.[$ref.slice('#/$defs/'.length)]
    return target !== undefined && target !== schema && takesObjectsOnly(target, root)
  }
  return false
}
