import type { RouteDefinition } from '../routing/RouteDefinition.js'
import { controllerPaths } from './controllerPaths.js'
import { openApiDocument, type OpenApiDocument } from './openApiDocument.js'
import { packageInfo } from './packageInfo.js'

/**
 * The document of an application's routes, as `GET /openapi.json`, `fw openapi` and `fw types` give it: `info` from
 * its package.json, `servers` from `APP_URL`, and operationIds and tags from its controllers' files under
 * `App/Controllers`.
 *
 * @example
 * ```ts
 * const document = await appOpenApiDocument(router.getRoutes(), appRoot())
 * ```
 */
export async function appOpenApiDocument(routes: readonly RouteDefinition[], root: string, env: NodeJS.ProcessEnv = process.env): Promise<OpenApiDocument> {
  return openApiDocument(routes, packageInfo(root), { serverUrl: env.APP_URL, controllers: await controllerPaths(routes, root) })
}
