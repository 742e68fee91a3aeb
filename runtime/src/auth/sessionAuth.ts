import type { Request } from '../http/Request.js'
import { issueToken, REMEMBER_LIFETIME, revokeToken, tokenUser } from './accessTokens.js'
import type { AuthUser } from './currentUser.js'

/** The session key that holds the browser's session token (a row of `access_tokens`, kind `session`). */
export const SESSION_KEY = 'auth.token'

/**
 * Signs a browser in: a new session token, kept in its encrypted session cookie (the `session` middleware),
 * and a new session id and CSRF token, so that none learned before signing in carries over. The token is a
 * row of `access_tokens`: signing out, or changing the password (`changePassword`), revokes it, so a copy of
 * the old cookie signs nobody in. With `remember`, "remember me": the session and its cookie last 30 days
 * (`REMEMBER_LIFETIME`) instead of `SESSION_LIFETIME` idle, and are revoked the same ways.
 *
 * @example
 * ```ts
 * await signIn(request, user, { remember: request.input('remember') === 'on' })
 * return Response.redirect('/me', 303)
 * ```
 */
export async function signIn(request: Request, user: AuthUser, options: { remember?: boolean } = {}): Promise<void> {
  const { token } = await issueToken(user.id, 'session', options.remember ? { lifetimeMs: REMEMBER_LIFETIME } : {})
  request.session.regenerate().put(SESSION_KEY, token)
  if (options.remember) request.session.keepFor(REMEMBER_LIFETIME)
  // The new CSRF token now, so that the cookie set at sign-in already holds the one every later page shows.
  request.session.token()
}

/** Signs a browser out: revokes its session token and empties the session. */
export async function signOut(request: Request): Promise<void> {
  const token = request.session.get<unknown>(SESSION_KEY)
  if (typeof token === 'string') await revokeToken(token)
  request.session.invalidate()
}

/** The user the browser's session signs in, while its token is valid; undefined without a session. */
export async function sessionUser(request: Request): Promise<AuthUser | undefined> {
  if (!request.hasSession()) return undefined
  const token = request.session.get<unknown>(SESSION_KEY)
  return typeof token === 'string' ? tokenUser(token, 'session') : undefined
}
