import type { Request } from '../http/Request.js'

/** The token of an `Authorization: Bearer <token>` header, if the request has one. */
export function bearerToken(request: Request): string | undefined {
  return /^Bearer +(\S+) *$/i.exec(request.header('authorization') ?? '')?.[1]
}

/**
 * Whether to answer this request with JSON rather than a page or a redirect: it sends a bearer token (only API
 * clients do), or it is not a browser asking for a page (`request.expectsJson()`: its `Accept` does not prefer
 * `text/html` to JSON). curl, fetch and generated clients, which send `Accept: *\/*` or none, get JSON.
 *
 * @example
 * ```ts
 * if (wantsJson(request)) return Response.json({ user })
 * ```
 */
export function wantsJson(request: Request): boolean {
  return bearerToken(request) !== undefined || request.expectsJson()
}

/**
 * Whether the request is an API call that these routes answer with a token and never with a cookie: it
 * sends a bearer token, or a body whose media type is exactly `application/json`. A browser sends neither
 * to another site without a CORS preflight, so neither can be forged, and CSRF does not apply. Anything else
 * (`text/plain;json`, `application/x-www-form-urlencoded;json`, a form) is a browser's request.
 */
export function isApiCall(request: Request): boolean {
  if (bearerToken(request) !== undefined) return true
  const type = (request.header('content-type') ?? '').split(';', 1)[0]!.trim().toLowerCase()
  return type === 'application/json'
}
