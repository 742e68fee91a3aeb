import { appRoot } from '../config/appRoot.js'
import { isProduction } from '../config/environment.js'
import { Response } from '../http/Response.js'
import type { Middleware, RouteDefinition } from '../routing/RouteDefinition.js'
import { appOpenApiDocument } from './appOpenApiDocument.js'

/** Where the document is served. */
export const OPENAPI_PATH = '/openapi.json'

/**
 * Whether the router serves `/openapi.json`: always outside production; in production only with `OPENAPI=true`
 * (a public API may want its document public; an internal one should not tell the world its routes).
 */
export function openApiEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return !isProduction(env) || env.OPENAPI === 'true'
}

/**
 * `GET /openapi.json`: the OpenAPI 3.1.0 document of the router's routes, which the router puts among its own pages,
 * for paths no route takes (a route of the app at that path wins), with `servers` from `APP_URL` and operationIds from
 * the controllers' files (see `appOpenApiDocument`). The document is built on the first request and kept: the routes
 * are frozen by then.
 *
 * @example
 * ```ts
 * const pages = openApiEnabled() ? [openApiPage(() => router.getRoutes())] : []
 * ```
 */
export function openApiPage(routes: () => readonly RouteDefinition[]): Middleware {
  let body: Promise<string> | undefined
  return (request, next) => {
    const method = request.method()
    if (request.uri() !== OPENAPI_PATH || (method !== 'GET' && method !== 'HEAD')) return next()
    body ??= appOpenApiDocument(routes(), appRoot()).then(
      (document) => JSON.stringify(document),
      (error: unknown) => {
        body = undefined // the next request tries again, and says again what failed
        throw error
      },
    )
    return body.then((text) => new Response(text, 200, { 'Content-Type': 'application/json; charset=utf-8' }))
  }
}
