import type { SecurityScheme } from './middlewareDocs.js'

/**
 * The credentials Fw's own middleware take, as OpenAPI security schemes, by the names they have in the document:
 * several middleware name the same scheme (`auth` and the CSRF check both accept a bearer token), and one name must
 * mean one scheme.
 *
 * @example
 * ```ts
 * documented(auth, { security: { bearerAuth: SECURITY_SCHEMES.bearerAuth, sessionCookie: SECURITY_SCHEMES.sessionCookie } })
 * ```
 */
export const SECURITY_SCHEMES = {
  bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API token: `Authorization: Bearer <token>`.' },
  sessionCookie: { type: 'apiKey', in: 'cookie', name: 'fw_session', description: 'The encrypted session cookie of a signed-in browser.' },
  csrfToken: {
    type: 'apiKey',
    in: 'header',
    name: 'X-CSRF-Token',
    description: "The session's CSRF token (or a `_token` field of the body), with the session cookie, on every POST, PUT, PATCH and DELETE.",
  },
} as const satisfies Record<string, SecurityScheme>
