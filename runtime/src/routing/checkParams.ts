import { HttpError } from '../http/HttpError.js'
import type { Pipeline } from './compilePipeline.js'
import type { RouteDefinition } from './RouteDefinition.js'

/**
 * The route's handler step behind a check of the path parameters it declared schemas for (`.params({ id: … })`):
 * a value a schema refuses is a 404, as a value `where` refuses, since the path names nothing that exists. Only
 * a route that declares parameter schemas gets this step; every other route runs its handler as before.
 */
export function checkParams(route: RouteDefinition, handler: Pipeline): Pipeline {
  const declared = route.declared?.params ?? {}
  const checks = route.paramNames.map((name, index) => ({ index, schema: declared[name] })).filter((check) => check.schema !== undefined)
  return async (request, values) => {
    for (const { index, schema } of checks) {
      // An optional parameter the path leaves out has nothing to check.
      if (values[index] === undefined) continue
      let result = schema!['~standard'].validate(values[index])
      if (result instanceof Promise) result = await result
      if (result.issues) throw new HttpError(404, 'Not Found')
    }
    return handler(request, values)
  }
}
