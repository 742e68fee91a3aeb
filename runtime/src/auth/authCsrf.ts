import type { Middleware } from '../http/Middleware.js'
import { documented } from '../http/middlewareDocs.js'
import { verifyCsrfToken } from '../session/verifyCsrfToken.js'
import { isApiCall } from './bearerToken.js'

const csrf = verifyCsrfToken()

/**
 * The runtime's `csrf` check (after `session`) for the routes that serve both browsers and API clients:
 * every browser request must carry the session's CSRF token, whatever its Content-Type. An API call (a
 * bearer token, or a body that is exactly `application/json`, see `isApiCall`) skips it: no page of another
 * site can send one without a CORS preflight, and these routes answer it with a token, never a cookie.
 *
 * @example
 * ```ts
 * Route.post('/login', [LoginController, 'store']).middleware('session', authCsrf)
 * ```
 */
export const authCsrf: Middleware = (request, next) => (isApiCall(request) ? next() : csrf(request, next))
documented(authCsrf, {
  // The document describes the JSON calls, which skip the check: only a browser's form post meets the 419.
  responses: { 419: { description: "CSRF token mismatch: a browser's form post without the session's CSRF token" } },
  methods: ['POST', 'PUT', 'PATCH', 'DELETE'],
})
