import type { JsonSchema } from './jsonSchemaOf.js'

const COMPONENTS = '#/components/schemas/'

/**
 * A converted schema as it goes into the document. One that stands alone is returned as it is. One with `$defs` (zod's
 * `z.json()`, a `z.lazy` or getter tree, `.meta({ id })`) has each definition lifted into `components.schemas`, and
 * one that refers to itself (`#`) goes there whole, under `name`, with a `$ref` returned in its place: every `$ref` is
 * rewritten to the component it names, so that no component holds `$defs` of its own. A `$defs` inside a component is
 * what openapi-typescript types as a property of the body; a `#` inside the document names the whole document.
 *
 * A definition keeps the id the application gave it (`.meta({ id: 'Category' })`) when no other schema holds that
 * name; zod's own ids (`__schema0`) are put after `name`: `post_blog_posts_Body_schema0`. Any JSON value (`z.json()`,
 * a union of every JSON type that refers to itself) is `{}`, which says the same of a JSON body without recursion: a
 * recursive union through arrays is what openapi-fetch's types of a request body cannot take.
 *
 * @example
 * ```ts
 * const schema = inDocument(jsonSchemaOf(body, 'input')!, 'posts.store_Body', document.components.schemas)
 * ```
 */
export function inDocument(json: JsonSchema, name: string, schemas: Record<string, JsonSchema>): JsonSchema {
  if (!json.$defs && !hasLocalRef(json)) return json
  const { $defs, ...root } = json
  if (isAnyJson(root, '#')) return {}
  const definitions = ($defs ?? {}) as Record<string, JsonSchema>
  const names = new Map<string, string>()
  const anyJson = new Set<string>()
  for (const [key, definition] of Object.entries(definitions)) {
    if (isAnyJson(definition, `#/$defs/${key}`)) anyJson.add(key)
    else names.set(key, definitionName(key, definition, name, schemas))
  }

  let selfReferring = false
  const rewrite = (ref: string): string | undefined => {
    const definition = /^#\/\$defs\/([^/]+)(.*)$/.exec(ref)
    const key = definition && unescape(definition[1]!)
    if (key !== null && anyJson.has(key) && definition![2] === '') return undefined
    if (key !== null && names.has(key)) return COMPONENTS + names.get(key) + definition![2]
    selfReferring = true
    return COMPONENTS + name + ref.slice(1)
  }
  for (const [key, definition] of Object.entries(definitions)) {
    if (names.has(key)) schemas[names.get(key)!] = rewriteRefs(definition, rewrite) as JsonSchema
  }
  const inline = rewriteRefs(root, rewrite) as JsonSchema
  if (!selfReferring) return inline
  schemas[name] = inline
  return { $ref: COMPONENTS + name }
}

/** Whether a schema refers to a place inside itself (`#`, `#/$defs/…`). */
export function hasLocalRef(json: JsonSchema): boolean {
  return /"\$ref":"#/.test(JSON.stringify(json))
}

function definitionName(key: string, definition: JsonSchema, owner: string, schemas: Record<string, JsonSchema>): string {
  const own = key.replace(/[^A-Za-z0-9_.-]/g, '_')
  // zod names the definitions it makes up `__schema0`, `__schema1`: they mean nothing outside this schema.
  if (!key.startsWith('__') && (schemas[own] === undefined || JSON.stringify(schemas[own]) === JSON.stringify(definition))) return own
  return `${owner}_${own.replace(/^_+/, '')}`
}

/** A JSON Pointer's segment as it was: `~1` is `/`, `~0` is `~`, and percent-encoding in a URI fragment. */
function unescape(segment: string): string {
  return decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~')
}

/** `{ "$ref": … }` rewritten; a reference to any JSON value (`rewrite` gives undefined) becomes the schema around it alone. */
function rewriteRefs(value: unknown, rewrite: (ref: string) => string | undefined): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, rewrite))
  if (typeof value !== 'object' || value === null) return value
  const result: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) {
    if (key !== '$ref' || typeof item !== 'string' || !item.startsWith('#')) result[key] = rewriteRefs(item, rewrite)
    else if (rewrite(item) !== undefined) result[key] = rewrite(item)
  }
  return result
}

const JSON_TYPES = ['array', 'boolean', 'null', 'number', 'object', 'string']

/** zod's `z.json()`: a union of every JSON type whose arrays and objects hold the union itself (`self`). */
function isAnyJson(schema: JsonSchema, self: string): boolean {
  const members = schema.anyOf as JsonSchema[] | undefined
  if (!Array.isArray(members) || members.length !== JSON_TYPES.length) return false
  if (members.map((member) => member.type).sort().join() !== JSON_TYPES.join()) return false
  const array = members.find((member) => member.type === 'array')!
  const object = members.find((member) => member.type === 'object')!
  return (array.items as JsonSchema | undefined)?.$ref === self && (object.additionalProperties as JsonSchema | undefined)?.$ref === self
}
