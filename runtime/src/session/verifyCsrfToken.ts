import { timingSafeEqual } from 'node:crypto'
import { HttpError } from '../http/HttpError.js'
import type { Request } from '../http/Request.js'
import type { Middleware } from '../http/Middleware.js'
import { documented } from '../http/middlewareDocs.js'
import { SECURITY_SCHEMES } from '../http/securitySchemes.js'

export interface CsrfOptions {
  /** Other origins whose pages may post here, e.g. `https://admin.example.com`. */
  trustedOrigins?: readonly string[]
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** A bearer token alone, or the session's cookie with its CSRF token; on the methods that change something. */
const CSRF_DOCS = {
  responses: { 419: { description: 'CSRF token mismatch: no valid CSRF token for the session, or a request from another site' } },
  security: { bearerAuth: SECURITY_SCHEMES.bearerAuth, csrfToken: SECURITY_SCHEMES.csrfToken },
  methods: ['POST', 'PUT', 'PATCH', 'DELETE'],
}

/**
 * The `csrf` middleware, after `session`: every POST, PUT, PATCH and DELETE must carry the session's CSRF token,
 * in a `_token` field or an `X-CSRF-Token` header, whatever its Content-Type (a `text/plain` or `…;json` body is
 * no exemption), and must come from a page of this origin: a `Sec-Fetch-Site` other than `same-origin` (a
 * sibling subdomain is `same-site`, and refused) or an `Origin` of another site answers 419. Only requests that
 * authenticate with a bearer token are exempt: a browser never sends one by itself, so they cannot be forged.
 *
 * @example
 * ```ts
 * Route.post('/profile', [ProfileController, 'update']).middleware('session', 'csrf')
 * // in the form: <input type="hidden" name="_token" value="${request.csrfToken()}">
 * ```
 */
export function verifyCsrfToken(options: CsrfOptions = {}): Middleware {
  const trusted = new Set(options.trustedOrigins ?? [])
  return documented((request, next) => {
    if (SAFE_METHODS.has(request.method()) || hasBearerToken(request)) return next()
    if (!fromThisOrigin(request, trusted) || !tokenMatches(request)) throw new HttpError(419, 'CSRF token mismatch')
    return next()
  }, CSRF_DOCS)
}

function hasBearerToken(request: Request): boolean {
  return /^Bearer \S/i.test(request.header('authorization') ?? '')
}

/**
 * Fetch metadata and Origin, when the browser sends them: a request from another origin is refused even with
 * a valid token (it may have been read from a page of a sibling subdomain). `Origin: null` is what a browser sends
 * for a form of this origin on a page with `Referrer-Policy: no-referrer` (a password reset page), and it names no
 * origin to compare: it counts as a missing Origin, so the session's token decides, unless `Sec-Fetch-Site` says the
 * post came from another site. (Browsers send no `Sec-Fetch-Site` over plain http to a host other than localhost.)
 */
function fromThisOrigin(request: Request, trusted: ReadonlySet<string>): boolean {
  const origin = request.header('origin')
  if (origin !== null && trusted.has(origin)) return true
  const site = request.header('sec-fetch-site')
  if (site !== null && site !== 'same-origin' && site !== 'none') return false
  if (origin === null || origin === 'null') return true
  const host = request.header('host')
  return host !== null && origin === `${request.secure() ? 'https' : 'http'}://${host}`
}

function tokenMatches(request: Request): boolean {
  const expected = request.session.token()
  // From a header or the body, never the query string: a token in a URL leaks through logs and Referer.
  const body = request.body() as Record<string, unknown> | undefined
  const given = request.header('x-csrf-token') ?? (typeof body === 'object' && body !== null ? body._token : undefined)
  if (typeof given !== 'string') return false
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}
