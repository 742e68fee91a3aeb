/**
 * `fw-runtime/client`: a typed client of an Fw application's API, over fetch, typed by the `.fw/api.d.ts` that
 * `fw types` writes from the routes' OpenAPI document. The engine is openapi-fetch (a few kilobytes, the field's client
 * for openapi-typescript's types); the application talks to this module only.
 *
 * @module
 */
import createOpenApiClient, { type Client } from 'openapi-fetch'

export interface ClientOptions {
  /** The application's origin and any prefix: `http://127.0.0.1:8000`. */
  baseUrl: string
  /** The fetch to send with (default `globalThis.fetch`): a test's, or one that adds a token. */
  fetch?: (request: Request) => Promise<Response>
  /** Headers sent with every request (`{ Authorization: 'Bearer …' }`); a call's own headers add to them. */
  headers?: Record<string, string>
}

/**
 * The client of an API whose types are `Paths`: one method per HTTP method (`GET`, `POST`, `PUT`, `PATCH`, `DELETE`,
 * …), each taking a path of the document and that operation's `params` (`path`, `query`) and `body`. A path the
 * document does not have, a missing path parameter or a body of the wrong shape fails `tsc`. A call resolves to
 * `{ data }` on a 2xx, `{ error }` otherwise (typed by the declared responses), and `response`; it throws only when
 * fetch does (the network).
 */
export type ApiClient<Paths extends {}> = Client<Paths>

/**
 * A typed client for the routes of an Fw application.
 *
 * @example
 * ```ts
 * import { createClient } from 'fw-runtime/client'
 * import type { paths } from '../.fw/api.js'
 *
 * const api = createClient<paths>({ baseUrl: 'http://127.0.0.1:8000' })
 * const { data, error } = await api.POST('/api/tasks', { body: { title: 'Write the docs' } })
 * const task = await api.GET('/api/tasks/{id}', { params: { path: { id: '1' } } })
 * ```
 */
export function createClient<Paths extends {}>(options: ClientOptions): ApiClient<Paths> {
  const { baseUrl, fetch, headers } = options
  return createOpenApiClient<Paths>({ baseUrl, headers, ...(fetch ? { fetch } : {}) })
}
