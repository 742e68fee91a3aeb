import type { Middleware } from '../http/Middleware.js'
import { docsOf, type MiddlewareDocs, type MiddlewareResponse, type SecurityScheme } from '../http/middlewareDocs.js'
import type { RouteDefinition } from '../routing/RouteDefinition.js'
import type { JsonSchema } from './jsonSchemaOf.js'

/** An OpenAPI response object, as the document holds it. */
export type OpenApiResponse = Record<string, unknown>

/** What the middleware of one operation add to it: responses by status, the security alternatives, and their schemes. */
export interface MiddlewareAdditions {
  readonly responses: Record<string, OpenApiResponse>
  /** OpenAPI's `security`: any one requirement is enough, and every scheme of a requirement is needed. Undefined when none guards it. */
  readonly security: Record<string, string[]>[] | undefined
  readonly schemes: Record<string, SecurityScheme>
}

/** The schema of a header a middleware names, when it gives only a description. */
const HEADER_SCHEMAS: Record<string, JsonSchema> = {
  'retry-after': { type: 'integer', minimum: 0 },
  location: { type: 'string', format: 'uri-reference' },
}

/**
 * What the middleware an operation runs declared with `documented(…)`: global, path-scoped, group and route
 * middleware, aliases resolved (`route.layers`, set when the router compiles; before that, the functions the route
 * names). A declaration for some methods only (the CSRF check's) applies to those; a response for pages only (a
 * browser's redirect to sign in) to a route whose success is a page.
 *
 * Two middleware that each admit some credentials must both be satisfied: the operation's security is every way to
 * satisfy both, with the redundant ones left out (`auth` takes a bearer token or the session cookie, the CSRF check a
 * bearer token or the CSRF token: a bearer token, or the session cookie with the CSRF token).
 *
 * @example
 * ```ts
 * const { responses, security, schemes } = middlewareAdditions(route, 'POST', false)
 * ```
 */
export function middlewareAdditions(route: RouteDefinition, method: string, page: boolean): MiddlewareAdditions {
  const responses: Record<string, OpenApiResponse> = {}
  const schemes: Record<string, SecurityScheme> = {}
  let security: Set<string>[] | undefined
  for (const docs of declarationsOf(route)) {
    if (docs.methods && !docs.methods.includes(method)) continue
    for (const [status, response] of Object.entries(docs.responses ?? {})) {
      if (response.pagesOnly && !page) continue
      responses[status] = responses[status] ? mergeResponses(responses[status], responseObject(response)) : responseObject(response)
    }
    const names = Object.keys(docs.security ?? {})
    if (names.length === 0) continue
    for (const name of names) schemes[name] = docs.security![name]!
    security = leastRequirements((security ?? [new Set<string>()]).flatMap((held) => names.map((name) => new Set([...held, name]))))
  }
  return { responses, security: security?.map((names) => Object.fromEntries([...names].map((name) => [name, []]))), schemes }
}

function declarationsOf(route: RouteDefinition): MiddlewareDocs[] {
  const middleware = route.layers ?? route.middlewareList.filter((reference): reference is Middleware => typeof reference === 'function')
  return middleware.map(docsOf).filter((docs) => docs !== undefined)
}

/** The requirements without those that hold another whole: `{bearer}` makes `{bearer, csrf}` needless. */
function leastRequirements(requirements: Set<string>[]): Set<string>[] {
  const distinct = requirements.filter((one, index) => requirements.findIndex((other) => sameSet(one, other)) === index)
  return distinct.filter((one) => !distinct.some((other) => other !== one && other.size < one.size && [...other].every((name) => one.has(name))))
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && [...a].every((name) => b.has(name))
}

/** A middleware's response in OpenAPI's words: its body (`Error` unless it says otherwise) and headers. */
export function responseObject(response: MiddlewareResponse): OpenApiResponse {
  const result: OpenApiResponse = { description: response.description }
  if (response.headers) {
    result.headers = Object.fromEntries(
      Object.entries(response.headers).map(([name, header]) => [
        name,
        typeof header === 'string' ? { description: header, schema: HEADER_SCHEMAS[name.toLowerCase()] ?? { type: 'string' } } : header,
      ]),
    )
  }
  const body = response.body === undefined ? 'Error' : response.body
  if (body !== null) {
    const schema = typeof body === 'string' ? { $ref: `#/components/schemas/${body}` } : body
    result.content = { 'application/json': { schema } }
  }
  return result
}

/**
 * Two answers on one status (two middleware, or a middleware and the route's own check): either description, both
 * headers, and either body: a JSON body that differs is `anyOf` the two, so that a client expects each.
 */
export function mergeResponses(first: OpenApiResponse, second: OpenApiResponse): OpenApiResponse {
  const description = first.description === second.description ? first.description : `${first.description}; or: ${second.description}`
  const headers = first.headers || second.headers ? { ...(second.headers as object), ...(first.headers as object) } : undefined
  const content = mergeContent(first.content as Content | undefined, second.content as Content | undefined)
  return { ...second, ...first, description, ...(headers ? { headers } : {}), ...(content ? { content } : {}) }
}

type Content = Record<string, { schema?: unknown }>

function mergeContent(first: Content | undefined, second: Content | undefined): Content | undefined {
  if (!first || !second) return first ?? second
  const merged: Content = { ...second, ...first }
  for (const [type, media] of Object.entries(second)) {
    const mine = first[type]
    if (mine?.schema && media.schema && JSON.stringify(mine.schema) !== JSON.stringify(media.schema)) merged[type] = { ...mine, schema: { anyOf: [mine.schema, media.schema] } }
  }
  return merged
}
