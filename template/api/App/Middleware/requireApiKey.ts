import { timingSafeEqual } from 'node:crypto'
import { documented, Response, type Middleware, type Request } from 'fw-runtime'

/**
 * Lets a request through only with the `X-API-Key` header that API_KEY in .env holds; 401 Unauthorized otherwise.
 * `documented` tells /openapi.json so: the routes that use it take the key (a security scheme a client fills in)
 * and may answer 401.
 *
 * @example
 * Route.post('/reports', [ReportController, 'store']).middleware(requireApiKey)
 */
export const requireApiKey = documented<Middleware>((request, next) => (hasValidApiKey(request) ? next() : Response.error('Unauthorized', 401)), {
  responses: { 401: { description: 'No valid X-API-Key header' } },
  security: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
})

/** The X-API-Key header against API_KEY, compared in constant time; no API_KEY lets no one in. */
function hasValidApiKey(request: Request): boolean {
  const expected = process.env.API_KEY
  const given = request.header('X-API-Key')
  if (!expected || !given) return false
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}
