import { HttpError } from '../http/HttpError.js'
import type { Request } from '../http/Request.js'
import { Response } from '../http/Response.js'
import type { Middleware } from '../http/Middleware.js'
import { documented } from '../http/middlewareDocs.js'
import { SECURITY_SCHEMES } from '../http/securitySchemes.js'
import { startSession } from '../session/startSession.js'
import { tokenUser } from './accessTokens.js'
import { bearerToken, wantsJson } from './bearerToken.js'
import type { AuthUser } from './currentUser.js'
import { sessionUser } from './sessionAuth.js'

/** For a route that names `auth` or `guest` without `session`: the same encrypted cookie session. */
const session = startSession()

/**
 * Lets only signed-in users through, and puts the user in `request.user` (read it with
 * `currentUser(request)`). An API client signs in with `Authorization: Bearer <token>`, a browser with its
 * session cookie (the `session` middleware runs first if the route did not name it). Without either, a
 * browser asking for a page (its `Accept` prefers `text/html` to JSON) is sent to `/login`, which brings it
 * back; every other client (curl, fetch, generated clients: `Accept: *\/*` or none) gets 401
 * `{"error":"Unauthenticated"}`, as the OpenAPI document says.
 *
 * @example
 * ```ts
 * import { auth, currentUser } from 'fw-runtime/auth'
 * Route.get('/greeting', (request) => ({ hello: currentUser(request).name })).middleware(auth)
 * ```
 */
export const auth: Middleware = (request, next) => withSession(request, async () => {
  const user = await authenticate(request)
  if (user) {
    request.user = user
    return next()
  }
  if (wantsJson(request)) throw new HttpError(401, 'Unauthenticated')
  return Response.redirect(`/login?redirect=${encodeURIComponent(request.url())}`)
})
documented(auth, {
  responses: {
    401: { description: 'Not signed in: no valid bearer token or session cookie' },
    302: { description: 'A browser that is not signed in is sent to /login', body: null, headers: { Location: 'The sign-in page' }, pagesOnly: true },
  },
  security: { bearerAuth: SECURITY_SCHEMES.bearerAuth, sessionCookie: SECURITY_SCHEMES.sessionCookie },
})

/**
 * For pages only guests need (sign-in, registration), as Laravel's `RedirectIfAuthenticated`: a signed-in
 * browser is sent to `home` (the page it lands on after signing in) instead.
 *
 * @example
 * ```ts
 * Route.get('/login', [LoginController, 'show']).middleware('session', redirectIfAuthenticated('/me'))
 * ```
 */
export function redirectIfAuthenticated(home: string): Middleware {
  return documented((request, next) => withSession(request, async () => {
    if (!wantsJson(request) && (await sessionUser(request))) return Response.redirect(home)
    return next()
  }), { responses: { 302: { description: `A signed-in browser is sent to ${home}`, body: null, headers: { Location: home }, pagesOnly: true } } })
}

/** `redirectIfAuthenticated('/')`: a signed-in browser goes to `/`. */
export const guest: Middleware = redirectIfAuthenticated('/')

async function authenticate(request: Request): Promise<AuthUser | undefined> {
  const token = bearerToken(request)
  // A request that sends a token is judged by it alone, never by a cookie that came along.
  if (token !== undefined) return tokenUser(token, 'api')
  return sessionUser(request)
}

/** Runs `body` inside the session middleware when the route has not started a session yet. */
function withSession(request: Request, body: () => Promise<Response>): Promise<Response> {
  if (request.hasSession() || bearerToken(request) !== undefined) return body()
  return Promise.resolve(session(request, body)) as Promise<Response>
}
