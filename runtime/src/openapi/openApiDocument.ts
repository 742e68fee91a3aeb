import type { StandardSchemaV1 } from '@standard-schema/spec'
import type { SecurityScheme } from '../http/middlewareDocs.js'
import type { RouteDefinition } from '../routing/RouteDefinition.js'
import { DomainPattern } from '../routing/DomainPattern.js'
import { parsePattern, type PatternSegment } from '../routing/routePattern.js'
import { jsonSchemaOf, notConvertible, type JsonSchema } from './jsonSchemaOf.js'
import { mergeResponses, middlewareAdditions, type OpenApiResponse } from './middlewareAdditions.js'
import { operationNames, type ControllerPaths, type OperationNames } from './operationNames.js'
import { inDocument } from './schemaComponents.js'

/** The document's `info`: the application's package.json `name`, `version` and `description`. */
export interface OpenApiInfo {
  title: string
  version: string
  description?: string
}

/** What the document knows beyond the routes: where the application answers, and where its controllers live. */
export interface OpenApiOptions {
  /** The application's address (`APP_URL`): the document's `servers`. */
  readonly serverUrl?: string
  /** Each controller's file under `App/Controllers` (see `controllerPaths`), for operationIds and tags. */
  readonly controllers?: ControllerPaths
}

/** An OpenAPI 3.1.0 document, as a plain object ready for `JSON.stringify`. */
export interface OpenApiDocument {
  openapi: '3.1.0'
  info: OpenApiInfo
  servers?: { url: string }[]
  security: Record<string, string[]>[]
  paths: Record<string, Record<string, unknown>>
  components: {
    schemas: Record<string, JsonSchema>
    responses: Record<string, OpenApiResponse>
    securitySchemes?: Record<string, SecurityScheme>
  }
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

const errorResponse = (description: string, schema = 'Error'): OpenApiResponse => ({
  description,
  content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } },
})

/**
 * The answers the router gives for any route, before it runs: a body it cannot read (the router reads the body of
 * every request that sends one, whatever its method) and a body over the limit. Shared, by `$ref`.
 */
const SHARED_RESPONSES = {
  BadRequest: { status: '400', response: errorResponse('The body cannot be read: not valid JSON, or a malformed multipart body') },
  PayloadTooLarge: { status: '413', response: errorResponse('The body is over the size limit (1 MiB unless the server says otherwise)') },
} satisfies Record<string, { readonly status: string; readonly response: OpenApiResponse }>

const STATUS_TEXT: Record<number, string> = {
  200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No Content', 301: 'Moved Permanently', 302: 'Found', 303: 'See Other',
  304: 'Not Modified', 400: 'Bad Request', 401: 'Unauthenticated', 403: 'Forbidden', 404: 'Not Found', 409: 'Conflict',
  413: 'Payload Too Large', 419: 'CSRF token mismatch', 422: 'The given data was invalid', 429: 'Too Many Requests',
  500: 'Internal Server Error', 503: 'Service Unavailable',
}

/**
 * The OpenAPI 3.1.0 document of a router's routes: a pure function of the routes, the application's info and
 * `options`. Every route is in it, with or without a contract: its path with `{parameters}` (required, a `.where()`
 * pattern as the parameter's `pattern`), an `operationId` (the route's name, else its controller's file and action,
 * `Api.UserController.store`, see `operationNames`), its body and query schemas through Standard JSON Schema, and its
 * responses:
 * - those it declares (`.returns()`); an error status declared without a schema has the shared `Error` body, and a
 *   route that declares no success gets `200 OK`;
 * - those of the route's own checks: 422 with `ValidationError` for a body or query contract, 404 for a `.where()`
 *   pattern or a `.params()` schema, and the router's 400 and 413 (a body it cannot read, or too large);
 * - those its middleware declare with `documented(…)` (`auth`'s 401, `signed`'s 403, a throttle's 429 with
 *   `Retry-After`), with the credentials they take as the operation's `security` and the schemes in the components.
 *   A middleware's redirect for browsers (`auth`'s 302 to sign in) is documented on a page, a route whose success is
 *   `text/html` (`.returns(200, 'text/html')`), where a browser meets it; a JSON operation documents the 401.
 * A route's own declaration of a status wins over the others. Every error has a JSON body, `Error` or
 * `ValidationError` from the components. The document's `security` is empty: an operation no middleware guards is
 * public. A schema with no JSON Schema is documented as `x-fw-schema: not convertible` instead; building the
 * document _never_ throws on a schema. A recursive schema's definitions go to `components.schemas` (see `inDocument`).
 * A route marked `.excludeFromDocs()` (or in a group with `excludeFromDocs: true`) is left out.
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
 * const document = openApiDocument(router.getRoutes(), { title: 'my-app', version: '1.0.0' }, { serverUrl: process.env.APP_URL })
 * ```
 */
export function openApiDocument(allRoutes: readonly RouteDefinition[], info: OpenApiInfo, options: OpenApiOptions = {}): OpenApiDocument {
  const routes = allRoutes.filter((route) => !route.excludedFromDocs)
  const schemas: Record<string, JsonSchema> = { Error: ERROR_SCHEMA, ValidationError: VALIDATION_ERROR_SCHEMA }
  const securitySchemes: Record<string, SecurityScheme> = {}
  const paths: OpenApiDocument['paths'] = {}
  const operationIds = new Set<string>()
  const names = operationNames(routes, options.controllers)
  /** The route of each operation, by path and method: to settle two hosts' routes at one slot, and to place `servers`. */
  const owners = new Map<string, Map<string, RouteDefinition>>()
  for (const route of routes) {
    for (const method of route.methods) {
      for (const form of openApiForms(route.pattern)) {
        const key = method.toLowerCase()
        const owner = owners.get(form.path)?.get(key)
        if (owner && owner.domain !== route.domain && (route.domain !== undefined || owner.domain === undefined)) continue
        const operationId = uniqueId(baseOperationId(names, route, method, form), operationIds)
        const operation = describeOperation(route, method, form.path, operationId, names, { schemas, securitySchemes })
        ;(paths[form.path] ??= {})[key] = operation
        if (!owners.has(form.path)) owners.set(form.path, new Map())
        owners.get(form.path)!.set(key, route)
      }
    }
  }
  for (const [path, byMethod] of owners) placeServers(paths[path]!, byMethod)
  const servers = serversFrom(options.serverUrl)
  return {
    openapi: '3.1.0',
    info,
    ...(servers ? { servers } : {}),
    security: [],
    paths,
    components: {
      schemas,
      responses: Object.fromEntries(Object.entries(SHARED_RESPONSES).map(([name, { response }]) => [name, response])),
      ...(Object.keys(securitySchemes).length > 0 ? { securitySchemes } : {}),
    },
  }
}

/** `APP_URL` as the document's one server, without a trailing slash; none when it is not an http(s) URL. */
function serversFrom(url: string | undefined): { url: string }[] | undefined {
  if (!url || !/^https?:\/\/[^/]/.test(url)) return undefined
  return [{ url: url.replace(/\/+$/, '') }]
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

/** Where an operation puts what it lifts into the components. */
interface Components {
  readonly schemas: Record<string, JsonSchema>
  readonly securitySchemes: Record<string, SecurityScheme>
}

function describeOperation(route: RouteDefinition, method: string, path: string, operationId: string, names: OperationNames, components: Components) {
  const declared = route.declared ?? {}
  const name = (part: string) => schemaName(operationId, part)
  const operation: Record<string, unknown> = { operationId, tags: declared.tags ?? [names.tag(route)] }
  if (declared.summary) operation.summary = declared.summary
  operation.description = `Handled by ${route.describeHandler()}.`

  const parameters: Record<string, unknown>[] = []
  for (const [, parameter] of path.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)) {
    const schema = declared.params?.[parameter!]
    const described = schema ? convert(schema, 'input', name(`Param_${parameter}`), components.schemas) : { type: 'string' }
    parameters.push({ name: parameter, in: 'path', required: true, schema: withPattern(described, route, parameter!) })
  }
  if (declared.query) parameters.push(...queryParameters(declared.query, name('Query'), components.schemas))
  if (parameters.length > 0) operation.parameters = parameters

  if (declared.body) {
    const schema = convert(declared.body, 'input', name('Body'), components.schemas)
    operation.requestBody = { required: true, content: { 'application/json': { schema } } }
  }

  const responses = declaredResponses(route, name, components.schemas)
  const page = Object.entries(declared.responses ?? {}).some(([status, response]) => Number(status) < 300 && !response.schema && response.mediaTypes?.includes('text/html'))
  const additions = middlewareAdditions(route, method, page)
  const found: [string, OpenApiResponse][] = [
    [SHARED_RESPONSES.BadRequest.status, SHARED_RESPONSES.BadRequest.response],
    [SHARED_RESPONSES.PayloadTooLarge.status, SHARED_RESPONSES.PayloadTooLarge.response],
  ]
  if (declared.params || route.constraints) found.push(['404', errorResponse('Not Found: a path parameter its pattern or schema refuses')])
  if (declared.body || declared.query) found.push(['422', errorResponse(STATUS_TEXT[422]!, 'ValidationError')])
  found.push(...Object.entries(additions.responses))
  const derived: Record<string, OpenApiResponse> = {}
  for (const [status, response] of found) {
    if (responses[status]) continue
    derived[status] = derived[status] ? mergeResponses(derived[status], response) : response
  }
  operation.responses = sharedByRef({ ...responses, ...derived })

  if (additions.security) operation.security = additions.security
  for (const [scheme, definition] of Object.entries(additions.schemes)) {
    const known = components.securitySchemes[scheme]
    if (known && JSON.stringify(known) !== JSON.stringify(definition)) {
      throw new Error(
        `The middleware of ${route} declare a security scheme "${scheme}" that differs from the one of that name already in the document: ` +
          `${JSON.stringify(definition)}, not ${JSON.stringify(known)}; give it another name`,
      )
    }
    components.securitySchemes[scheme] = definition
  }
  return operation
}

/** The responses the route declares (`.returns()`): an error's body is `Error` unless it gives a schema; `200 OK` when it declares no success. */
function declaredResponses(route: RouteDefinition, name: (part: string) => string, schemas: Record<string, JsonSchema>): Record<string, OpenApiResponse> {
  const responses: Record<string, OpenApiResponse> = {}
  for (const [status, response] of Object.entries(route.declared?.responses ?? {})) {
    const description = response.description ?? STATUS_TEXT[Number(status)] ?? `Status ${status}`
    if (response.schema || response.mediaTypes) {
      const content: Record<string, { schema: JsonSchema }> = {}
      if (response.schema) content['application/json'] = { schema: convert(response.schema, 'output', name(`Response${status}`), schemas) }
      for (const type of response.mediaTypes ?? []) content[type] = { schema: { type: 'string' } }
      responses[status] = { description, content }
    } else {
      responses[status] = Number(status) >= 400 ? errorResponse(description) : { description }
    }
  }
  if (!Object.keys(responses).some((status) => Number(status) < 400)) responses['200'] = { description: 'OK' }
  return responses
}

/** The router's own answers, as `$ref`s to the shared responses (unless a middleware added to them). */
function sharedByRef(responses: Record<string, OpenApiResponse>): Record<string, OpenApiResponse> {
  for (const [name, { status, response }] of Object.entries(SHARED_RESPONSES)) {
    if (responses[status] === response) responses[status] = { $ref: `#/components/responses/${name}` }
  }
  return responses
}

/**
 * A path parameter's schema with its `.where()` pattern, anchored as the router matches it. JSON Schema patterns
 * have no flags: a case-insensitive pattern is left to the description.
 */
function withPattern(schema: JsonSchema, route: RouteDefinition, parameter: string): JsonSchema {
  const requirement = route.requirementOf(parameter)
  if (!requirement) return schema
  const pattern = `^(?:${requirement.source})$`
  if (requirement.flags.replace('u', '') !== '') {
    return { ...schema, description: `Matches /${pattern}/${requirement.flags}; anything else is a 404.` }
  }
  if (schema.pattern === undefined && schema.$ref === undefined) return { ...schema, pattern }
  return { allOf: [schema, { pattern }] }
}

/** The query schema's top-level fields as query parameters; the whole schema as one `query` object otherwise. */
function queryParameters(schema: StandardSchemaV1, name: string, schemas: Record<string, JsonSchema>): Record<string, unknown>[] {
  const json = convert(schema, 'input', name, schemas)
  const properties = json.properties as Record<string, JsonSchema> | undefined
  if (json.type !== 'object' || !properties) {
    return [{ name: 'query', in: 'query', style: 'form', explode: true, schema: json }]
  }
  const required = new Set((json.required as string[] | undefined) ?? [])
  return Object.entries(properties).map(([field, property]) => ({ name: field, in: 'query', required: required.has(field), schema: property }))
}

/** A schema's JSON Schema in the document (see `inDocument`), or the note that it has none. */
function convert(schema: StandardSchemaV1, io: 'input' | 'output', name: string, schemas: Record<string, JsonSchema>): JsonSchema {
  const json = jsonSchemaOf(schema, io)
  return json ? inDocument(json, name, schemas) : notConvertible(schema)
}

/**
 * The operation's id before it is made unique: a route with several methods adds `.post`; a path without some of
 * the route's optional parameters adds `_without_<names>` to a name or a controller's (`users.show_without_id`); a
 * closure's follows the path it is at.
 */
function baseOperationId(names: OperationNames, route: RouteDefinition, method: string, form: OpenApiForm): string {
  const id = names.operationId(route, method, form.path)
  if (typeof route.handler === 'function' && !route.routeName) return id
  const suffix = route.methods.length > 1 ? `.${method.toLowerCase()}` : ''
  const without = form.without.length > 0 ? `_without_${form.without.join('_')}` : ''
  return id + suffix + without
}

/**
 * The id itself, or with `_2`, `_3` where two routes would share one: only routes without names whose controllers
 * the document cannot tell apart (classes of one name, compiled without their files) come to that.
 */
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
