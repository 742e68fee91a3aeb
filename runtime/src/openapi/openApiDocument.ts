import type { StandardSchemaV1 } from '@standard-schema/spec'
import type { MiddlewareReference, RouteDefinition } from '../routing/RouteDefinition.js'
import { DomainPattern } from '../routing/DomainPattern.js'
import { parsePattern, type PatternSegment } from '../routing/routePattern.js'
import { jsonSchemaOf, NOT_CONVERTIBLE, type JsonSchema } from './jsonSchemaOf.js'

/** The document's `info`: the application's package.json `name`, `version` and `description`. */
export interface OpenApiInfo {
  title: string
  version: string
  description?: string
}

/** An OpenAPI 3.1.0 document, as a plain object ready for `JSON.stringify`. */
export interface OpenApiDocument {
  openapi: '3.1.0'
  info: OpenApiInfo
  paths: Record<string, Record<string, unknown>>
  components: { schemas: Record<string, JsonSchema>; securitySchemes?: Record<string, unknown> }
}

/** The body of every error Fw answers: `{"error": "Not Found"}`. */
const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  properties: { error: { type: 'string' } },
  required: ['error'],
}

/** A ValidationError's 422 body: `{"error": "The given data was invalid.", "errors": {"title": ["…"]}}`. */
const VALIDATION_ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    error: { type: 'string' },
    errors: {
      type: 'object',
      description: 'The messages by field: `user.email` for a nested field, `input` for the value as a whole.',
      additionalProperties: { type: 'array', items: { type: 'string' } },
    },
  },
  required: ['error', 'errors'],
}

const SECURITY_SCHEMES = {
  bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API token: `Authorization: Bearer <token>`.' },
  sessionCookie: { type: 'apiKey', in: 'cookie', name: 'fw_session', description: 'The encrypted session cookie of a signed-in browser.' },
}

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
})

const STATUS_TEXT: Record<number, string> = {
  200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No Content', 301: 'Moved Permanently', 302: 'Found', 303: 'See Other',
  304: 'Not Modified', 400: 'Bad Request', 401: 'Unauthenticated', 403: 'Forbidden', 404: 'Not Found', 409: 'Conflict',
  422: 'The given data was invalid', 429: 'Too Many Requests', 500: 'Internal Server Error',
}

/**
 * The OpenAPI 3.1.0 document of a router's routes: a pure function of the routes and the application's info. Every
 * route is in it, with or without a contract: its path with `{parameters}` (required), an `operationId` (the
 * route's name, else one derived from its controller and action, made unique), its body and query schemas through
 * Standard JSON Schema, its declared responses, the 422 shape wherever it validates, 401 (and 403) where `auth`
 * (and `can…` middleware) guards it, and tags by controller or path. A schema with no JSON Schema is documented as
 * `x-fw-schema: not convertible` instead; building the document _never_ throws on a schema.
 *
 * Route patterns that OpenAPI has no words for are put in its terms:
 * - a segment of text and parameters, `/images/{id}.{ext}`, is OpenAPI's path templating as it is, each parameter
 *   a required path parameter;
 * - a catch-all `{path*}` is `{path}`;
 * - optional parameters: OpenAPI's path parameters are always required, so `/users/{id?}` is two paths, `/users/{id}`
 *   with the route's operationId and `/users` with the operationId and `_without_id` (`/posts/{year?}/{month?}` is
 *   three: `…`, `…_without_month`, `…_without_year_month`); a closure route's id follows the path instead;
 * - a domain route gets `servers`, `https://{account}.example.com` with a variable for each domain parameter (its
 *   name as the default, which OpenAPI requires): on its path item when every operation of the path is on
 *   that domain, else on the operation. One path and method on two hosts cannot be two operations in OpenAPI: the
 *   route without a domain is documented (it answers on the application's own host), else the first one.
 *
 * @example
 * ```ts
 * const document = openApiDocument(router.getRoutes(), { title: 'my-app', version: '1.0.0' })
 * ```
 */
export function openApiDocument(routes: readonly RouteDefinition[], info: OpenApiInfo): OpenApiDocument {
  const schemas: Record<string, JsonSchema> = { Error: ERROR_SCHEMA, ValidationError: VALIDATION_ERROR_SCHEMA }
  const paths: OpenApiDocument['paths'] = {}
  const operationIds = new Set<string>()
  let guarded = false
  /** The route of each operation, by path and method: to settle two hosts' routes at one slot, and to place `servers`. */
  const owners = new Map<string, Map<string, RouteDefinition>>()
  for (const route of routes) {
    for (const method of route.methods) {
      for (const form of openApiForms(route.pattern)) {
        const key = method.toLowerCase()
        const owner = owners.get(form.path)?.get(key)
        if (owner && owner.domain !== route.domain && (route.domain !== undefined || owner.domain === undefined)) continue
        const operationId = uniqueId(baseOperationId(route, method, route.methods.length > 1, form), operationIds)
        const operation = describeOperation(route, method, form.path, operationId, schemas)
        if (operation.security) guarded = true
        ;(paths[form.path] ??= {})[key] = operation
        if (!owners.has(form.path)) owners.set(form.path, new Map())
        owners.get(form.path)!.set(key, route)
      }
    }
  }
  for (const [path, byMethod] of owners) placeServers(paths[path]!, byMethod)
  return {
    openapi: '3.1.0',
    info,
    paths,
    components: { schemas, ...(guarded ? { securitySchemes: SECURITY_SCHEMES } : {}) },
  }
}

/** One OpenAPI path of a route: the path, and the optional parameters it leaves out (none for the full one). */
interface OpenApiForm {
  readonly path: string
  readonly without: readonly string[]
}

/** The OpenAPI paths of a route's pattern: `{path*}` as `{path}`, and one path for each number of optional parameters present. */
function openApiForms(pattern: string): OpenApiForm[] {
  const segments = parsePattern(pattern, `Route "${pattern}"`)
  const forms: OpenApiForm[] = []
  const without: string[] = []
  for (let length = segments.length; ; length--) {
    forms.push({ path: `/${segments.slice(0, length).map(templateOf).join('/')}`, without: [...without] })
    const last = segments[length - 1]
    if (last?.kind !== 'param' || !last.optional) return forms
    without.unshift(last.name)
  }
}

function templateOf(segment: PatternSegment): string {
  if (segment.kind === 'static') return segment.text
  if (segment.kind === 'mixed') return segment.literals.map((literal, index) => (index === 0 ? literal : `{${segment.names[index - 1]}}${literal}`)).join('')
  return `{${segment.name}}`
}

/**
 * The `servers` of domain routes: on the path item when all its operations are on one domain, else on each operation
 * of a domain route. A server is the domain with a variable for each of its parameters.
 */
function placeServers(item: Record<string, unknown>, byMethod: ReadonlyMap<string, RouteDefinition>): void {
  const routes = [...byMethod.values()]
  if (routes.every((route) => route.domain === undefined)) return
  const domain = routes[0]!.domain
  if (routes.every((route) => route.domain === domain)) {
    item.servers = serversOf(routes[0]!)
    return
  }
  for (const [method, route] of byMethod) {
    if (route.domain !== undefined) (item[method] as Record<string, unknown>).servers = serversOf(route)
  }
}

function serversOf(route: RouteDefinition): Record<string, unknown>[] {
  const domain = new DomainPattern(route.domain!)
  // A server variable must have a default; a domain parameter has none, so its name stands in.
  const variables = Object.fromEntries(domain.names.map((name) => [name, { default: name }]))
  return [{ url: `https://${domain.pattern}`, ...(domain.names.length > 0 ? { variables } : {}) }]
}

function describeOperation(route: RouteDefinition, method: string, path: string, operationId: string, schemas: Record<string, JsonSchema>) {
  const declared = route.declared ?? {}
  const name = (part: string) => schemaName(operationId, part)
  const operation: Record<string, unknown> = { operationId, tags: declared.tags ?? [defaultTag(route)] }
  if (declared.summary) operation.summary = declared.summary
  operation.description = `Handled by ${route.describeHandler()}.`

  const parameters: Record<string, unknown>[] = []
  for (const [, parameter] of path.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)) {
    const schema = declared.params?.[parameter!]
    parameters.push({ name: parameter, in: 'path', required: true, schema: schema ? convert(schema, 'input', name(`Param_${parameter}`), schemas) : { type: 'string' } })
  }
  if (declared.query) parameters.push(...queryParameters(declared.query, name('Query'), schemas))
  if (parameters.length > 0) operation.parameters = parameters

  if (declared.body) {
    const schema = convert(declared.body, 'input', name('Body'), schemas)
    operation.requestBody = {
      required: true,
      content: { 'application/json': { schema } },
    }
  }

  const responses: Record<string, unknown> = {}
  for (const [status, response] of Object.entries(declared.responses ?? {})) {
    const description = response.description ?? STATUS_TEXT[Number(status)] ?? `Status ${status}`
    if (response.schema) {
      responses[status] = { description, content: { 'application/json': { schema: convert(response.schema, 'output', name(`Response${status}`), schemas) } } }
    } else if (response.mediaType) {
      responses[status] = { description, content: { [response.mediaType]: { schema: { type: 'string' } } } }
    } else {
      responses[status] = { description }
    }
  }
  if (Object.keys(responses).length === 0) responses['200'] = { description: 'OK' }
  if (declared.body) responses['400'] ??= errorResponse('The body is not valid JSON')
  if (declared.params) responses['404'] ??= errorResponse('A path parameter its schema refuses, or nothing at that path')
  if (declared.body || declared.query) {
    responses['422'] ??= { description: STATUS_TEXT[422], content: { 'application/json': { schema: { $ref: '#/components/schemas/ValidationError' } } } }
  }
  const middleware = [...route.middlewareList, ...(route.layers ?? [])]
  if (middleware.some(isAuth)) {
    operation.security = [{ bearerAuth: [] }, { sessionCookie: [] }]
    responses['401'] ??= errorResponse('Not signed in: no valid bearer token or session')
    if (middleware.some(isAuthorization)) responses['403'] ??= errorResponse('Signed in, but not allowed to do this')
  }
  operation.responses = responses
  return operation
}

/** The query schema's top-level fields as query parameters; the whole schema as one `query` object otherwise. */
function queryParameters(schema: StandardSchemaV1, name: string, schemas: Record<string, JsonSchema>): Record<string, unknown>[] {
  const json = jsonSchemaOf(schema, 'input')
  const properties = json?.properties as Record<string, JsonSchema> | undefined
  if (!json || json.type !== 'object' || !properties || hasLocalRef(json)) {
    return [{ name: 'query', in: 'query', style: 'form', explode: true, schema: convert(schema, 'input', name, schemas) }]
  }
  const required = new Set((json.required as string[] | undefined) ?? [])
  return Object.entries(properties).map(([field, property]) => ({ name: field, in: 'query', required: required.has(field), schema: property }))
}

/**
 * A schema's JSON Schema for the document: inline when it stands alone; in `components.schemas` when it refers to
 * itself or its own `$defs` (zod's recursive and `.meta({ id })` schemas), with its `$ref`s rebased there, since
 * `#` inside the document would name the document.
 */
function convert(schema: StandardSchemaV1, io: 'input' | 'output', name: string, schemas: Record<string, JsonSchema>): JsonSchema {
  const json = jsonSchemaOf(schema, io)
  if (!json) return { ...NOT_CONVERTIBLE }
  if (!hasLocalRef(json)) return json
  const base = `#/components/schemas/${name}`
  schemas[name] = rebase(json, base) as JsonSchema
  return { $ref: base }
}

function hasLocalRef(json: JsonSchema): boolean {
  return /"\$ref":"#/.test(JSON.stringify(json))
}

function rebase(value: unknown, base: string): unknown {
  if (Array.isArray(value)) return value.map((item) => rebase(item, base))
  if (typeof value !== 'object' || value === null) return value
  const result: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) {
    result[key] = key === '$ref' && typeof item === 'string' && item.startsWith('#') ? base + item.slice(1) : rebase(item, base)
  }
  return result
}

/**
 * The route's name; else `TaskController.store`; else the method and path: `get_api_health`. A path without some of
 * the route's optional parameters adds `_without_<names>` to a name or a controller's: `users.show_without_id`.
 */
function baseOperationId(route: RouteDefinition, method: string, manyMethods: boolean, form: OpenApiForm): string {
  const suffix = manyMethods ? `.${method.toLowerCase()}` : ''
  const without = form.without.length > 0 ? `_without_${form.without.join('_')}` : ''
  if (route.routeName) return route.routeName + suffix + without
  if (typeof route.handler !== 'function') return `${route.handler[0].name}.${route.handler[1]}${suffix}${without}`
  const path = form.path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, '')
  return `${method.toLowerCase()}_${path || 'root'}`
}

function uniqueId(base: string, taken: Set<string>): string {
  let id = base
  for (let n = 2; taken.has(id); n++) id = `${base}_${n}`
  taken.add(id)
  return id
}

/** A components key made from the operation: `TaskController.store` and `Body` give `TaskController_store_Body`. */
function schemaName(operationId: string, part: string): string {
  return `${operationId.replace(/[^A-Za-z0-9_-]/g, '_')}_${part}`
}

/** The controller's name without `Controller`, else the first segment of the path that is not a parameter. */
function defaultTag(route: RouteDefinition): string {
  if (typeof route.handler !== 'function') return route.handler[0].name.replace(/Controller$/, '') || route.handler[0].name
  return route.pattern.split('/').find((segment) => segment !== '' && !segment.includes('{')) ?? 'default'
}

/** `auth` from fw-runtime/auth (by its name, so that this module does not load the auth code), or the alias `auth`. */
function isAuth(middleware: MiddlewareReference): boolean {
  return typeof middleware === 'string' ? middleware === 'auth' : middleware.name === 'auth'
}

/** Laravel's `can:update,post` by name, or a middleware function named `can…` or `authorize…`. */
function isAuthorization(middleware: MiddlewareReference): boolean {
  const name = typeof middleware === 'string' ? middleware : middleware.name
  return /^(can|authorize)([A-Z:_]|$)/.test(name)
}
