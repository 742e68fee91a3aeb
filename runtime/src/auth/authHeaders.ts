import type { Middleware } from '../http/Middleware.js'

const HEADERS: Readonly<Record<string, string>> = {
  // Pages with a CSRF token, a user's details or a token must stay out of every cache, shared or not.
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  // Framed by another site, a sign-in form can be clickjacked.
  'Content-Security-Policy': "frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
}

/**
 * Headers for the pages that take or show credentials (`/login`, `/register`, `/me`): `Cache-Control:
 * no-store`, `X-Content-Type-Options: nosniff` and no framing (`frame-ancestors 'none'`, `X-Frame-Options:
 * DENY`), on every answer, errors included. A header the handler set itself is kept.
 *
 * @example
 * ```ts
 * Route.group({ middleware: [authHeaders, 'session', guest, authCsrf] }, () => { ... })
 * ```
 */
export const authHeaders: Middleware = async (_request, next) => {
  // The router renders a failure inside the layers into its error response, so errors arrive here as Responses too.
  const response = await next()
  for (const name of Object.keys(HEADERS)) if (!response.hasHeader(name)) response.setHeader(name, HEADERS[name]!)
  return response
}
