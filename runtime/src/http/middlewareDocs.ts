import type { Middleware } from './Middleware.js'

/** A JSON Schema (draft 2020-12, OpenAPI 3.1's dialect) as a plain object. */
type JsonSchema = Record<string, unknown>

/** A response a middleware may answer instead of the handler, for the OpenAPI document. */
export interface MiddlewareResponse {
  readonly description: string
  /** The body: `Error` (`{"error": …}`, the default), `ValidationError`, a JSON Schema of its own, or `null` for none (a redirect). */
  readonly body?: 'Error' | 'ValidationError' | JsonSchema | null
  /**
   * Headers it carries, by name: a description (`Retry-After` is documented as an integer, `Location` as a URI, any
   * other as a string), or a description and a schema.
   */
  readonly headers?: Readonly<Record<string, string | { readonly description: string; readonly schema: JsonSchema }>>
  /** Only on a route whose success is a page (`.returns(200, 'text/html')`): what a browser gets there, as a redirect to sign in. */
  readonly pagesOnly?: boolean
}

/** An OpenAPI security scheme object, e.g. `{ type: 'apiKey', in: 'header', name: 'X-API-Key' }`. */
export type SecurityScheme = Readonly<Record<string, unknown>>

/**
 * What a middleware adds to the OpenAPI document of every route it runs on: the responses it may answer (by
 * status) and, for a middleware that admits only some callers, the credentials it takes (each one alone is
 * enough, as OpenAPI's `security` list) with their schemes.
 */
export interface MiddlewareDocs {
  readonly responses?: Readonly<Record<number, MiddlewareResponse>>
  /** The schemes it accepts, by name: `{ apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } }`. */
  readonly security?: Readonly<Record<string, SecurityScheme>>
  /** The methods it acts on, when not all: the CSRF check lets GET, HEAD and OPTIONS through. */
  readonly methods?: readonly string[]
}

const DOCS = Symbol.for('fw.middlewareDocs')

/**
 * Declares what a middleware adds to the OpenAPI document, and returns the same function. An app's own middleware
 * declares the same way as Fw's.
 *
 * @example
 * ```ts
 * export const requireApiKey = documented(
 *   async (request, next) => (request.header('x-api-key') === env('API_KEY') ? next() : Response.error('Unauthenticated', 401)),
 *   {
 *     responses: { 401: { description: 'No valid X-API-Key header' } },
 *     security: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
 *   },
 * )
 * ```
 */
export function documented<M extends Middleware>(middleware: M, docs: MiddlewareDocs): M {
  Object.defineProperty(middleware, DOCS, { value: docs, configurable: true })
  return middleware
}

/** What a middleware declared with `documented`; undefined when it declared nothing. */
export function docsOf(middleware: Middleware): MiddlewareDocs | undefined {
  return (middleware as unknown as Record<symbol, MiddlewareDocs | undefined>)[DOCS]
}
