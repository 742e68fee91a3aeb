import type { StandardSchemaV1 } from '@standard-schema/spec'

/**
 * One documented response of a route: its JSON body's schema, and/or the media types of bodies that are not JSON
 * (`text/html` for a page), and a description. Neither for an empty body.
 */
export interface ContractResponse {
  readonly schema?: StandardSchemaV1
  /** The body's media types when it is not JSON, or not only JSON: `['text/html']`, `['text/csv']`, … */
  readonly mediaTypes?: readonly string[]
  readonly description?: string
}

/**
 * What a route takes and gives, as Standard Schema values (zod 4, valibot, arktype, …): the body, the query,
 * the path parameters and the responses by status, with a summary and tags for the OpenAPI document.
 * Every part is optional; a route without a contract costs nothing more per request.
 */
export interface RouteContract {
  /** The request body, validated by `request.validate()` without an argument. */
  readonly body?: StandardSchemaV1
  /** The query string, validated by `request.validate('query')`. */
  readonly query?: StandardSchemaV1
  /** A schema per path parameter, checked before the handler runs: a value it refuses is a 404. */
  readonly params?: Readonly<Record<string, StandardSchemaV1>>
  /** The responses by status: `{ 201: { schema: PostOut, description: 'The new post' } }`. */
  readonly responses?: Readonly<Record<number, ContractResponse>>
  /** One line for the OpenAPI operation's `summary`. */
  readonly summary?: string
  /** The operation's tags; by default the controller's name (without `Controller`), else the path's first segment. */
  readonly tags?: readonly string[]
}

/**
 * Declares a contract to share between a route and its controller: the route takes it with `.contract(…)`, the
 * controller validates with its schemas, typed by them.
 *
 * @example
 * ```ts
 * export const storePost = defineContract({
 *   body: z.object({ title: z.string() }),
 *   responses: { 201: { schema: PostOut } },
 * })
 * Route.post('/posts', [PostController, 'store']).contract(storePost)
 * // in PostController.store: const { title } = await request.validate(storePost.body)
 * ```
 */
export function defineContract<const Contract extends RouteContract>(contract: Contract): Contract {
  return contract
}
