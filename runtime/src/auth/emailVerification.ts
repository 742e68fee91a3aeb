import { createHash, timingSafeEqual } from 'node:crypto'
import { HttpError } from '../http/HttpError.js'
import type { Request } from '../http/Request.js'
import { Response } from '../http/Response.js'
import { Route } from '../routing/Route.js'
import type { Middleware } from '../http/Middleware.js'
import { documented } from '../http/middlewareDocs.js'
import { authDb } from './AuthTables.js'
import { wantsJson } from './bearerToken.js'
import { currentUser, type AuthUser } from './currentUser.js'
import { countAttempt, throttleKey, tooManyAttempts, type ThrottleRule } from './LoginThrottle.js'

/** How long a verification link works, in seconds: 60 minutes from when it was mailed. */
export const VERIFICATION_LINK_LIFETIME = 60 * 60

/**
 * How often a user may ask for another verification link: 6 times a minute, then 429. Counted in `login_attempts`,
 * so that every process shares the count.
 */
export const VERIFICATION_THROTTLE: Readonly<ThrottleRule> = { attempts: 6, windowMs: 60_000 }

/** Where the `verified` middleware sends a browser whose user has not verified the email yet (Laravel's route name). */
const NOTICE_ROUTE = 'verification.notice'
const NOT_VERIFIED = 'Your email address is not verified.'
const INVALID = 'This verification link is invalid.'

/**
 * The `{hash}` of a verification link: the SHA-256 (hex) of the email, so that a link mailed to an address stops
 * working once the account's address changes.
 */
export function emailHash(email: string): string {
  return createHash('sha256').update(email).digest('hex')
}

/**
 * The link of a verification mail, built on APP_URL and signed for 60 minutes: the route named `verification.verify`
 * (`/email/verify/{id}/{hash}`, behind the `signed` middleware) with the user's id and `emailHash` of the address.
 *
 * @example
 * ```ts
 * await mail.to(user.email).send(new VerifyEmailMail({ name: user.name, url: verificationUrl(user) }))
 * ```
 */
export function verificationUrl(user: AuthUser): string {
  return Route.signedUrl('verification.verify', { id: user.id, hash: emailHash(user.email) }, { expiresIn: VERIFICATION_LINK_LIFETIME })
}

/**
 * Marks the email of a verification link's user verified, and returns the user. Following a link twice changes
 * nothing (the first time stays). A link whose user is unknown, or whose hash is not that of the user's current email,
 * is a 403 HttpError. The route's `signed` middleware has checked the signature and the expiry already.
 *
 * @example
 * ```ts
 * Route.get('/email/verify/{id}/{hash}', async (request, id, hash) => {
 *   await verifyEmail(id, hash)
 *   return { message: 'Your email is verified.' }
 * }).name('verification.verify').middleware('signed')
 * ```
 */
export async function verifyEmail(id: string | number, hash: string): Promise<AuthUser> {
  const userId = Number(id)
  if (!Number.isSafeInteger(userId) || userId <= 0) throw new HttpError(403, INVALID)
  const user = await authDb().selectFrom('users').select(['id', 'name', 'email']).where('id', '=', userId).executeTakeFirst()
  if (!user || !sameHash(hash, emailHash(user.email))) throw new HttpError(403, INVALID)
  await authDb()
    .updateTable('users')
    .set({ email_verified_at: new Date().toISOString() })
    .where('id', '=', userId)
    .where('email_verified_at', 'is', null)
    .execute()
  return { id: Number(user.id), name: user.name, email: user.email }
}

/**
 * When the user verified the email, as an ISO 8601 string; null while they have not.
 *
 * @example
 * ```ts
 * return Response.json({ user, email_verified_at: await emailVerifiedAt(user) })
 * ```
 */
export async function emailVerifiedAt(user: AuthUser): Promise<string | null> {
  const row = await authDb().selectFrom('users').select('email_verified_at').where('id', '=', user.id).executeTakeFirst()
  const at = row?.email_verified_at ?? null
  if (at === null) return null
  return (at instanceof Date ? at : new Date(at)).toISOString()
}

/**
 * "Send me another link": counts the request against the user's limit (a 429 HttpError with `Retry-After` past 6 a
 * minute), then returns a new verification link, or undefined when the email is verified already.
 *
 * @example
 * ```ts
 * const url = await resendVerification(user)
 * if (url) await mail.to(user.email).send(new VerifyEmailMail({ name: user.name, url }))
 * ```
 */
export async function resendVerification(user: AuthUser): Promise<string | undefined> {
  const now = Date.now()
  const count = await countAttempt(throttleKey(`verification|user|${user.id}`), VERIFICATION_THROTTLE, now)
  if (count.attempts > VERIFICATION_THROTTLE.attempts) throw tooManyAttempts(count.resetAt - now, 'verification emails')
  if ((await emailVerifiedAt(user)) !== null) return undefined
  return verificationUrl(user)
}

/**
 * The `verified` middleware (an alias every router has, as `signed` and `session`): after `auth`, lets through only a
 * user who has verified the email. Otherwise a request that wants JSON gets 403 `{"error":"Your email address is not
 * verified."}`, and a browser is sent to the page named `verification.notice` (`/email/verify`, which offers to mail
 * a new link), or gets the 403 when the app has no such page. `pathOf` is the router's: the path of a named route.
 *
 * @example
 * ```ts
 * Route.get('/dashboard', [DashboardController, 'show']).middleware(auth, 'verified')
 * ```
 */
export function ensureEmailVerified(pathOf: (routeName: string) => string | undefined): Middleware {
  return documented(async (request: Request, next) => {
    if ((await emailVerifiedAt(currentUser(request))) !== null) return next()
    const notice = wantsJson(request) ? undefined : pathOf(NOTICE_ROUTE)
    if (notice === undefined) throw new HttpError(403, NOT_VERIFIED)
    return Response.redirect(notice)
  }, {
    responses: {
      403: { description: NOT_VERIFIED },
      302: { description: 'A browser is sent to the page that offers a new verification link', body: null, headers: { Location: 'That page' }, pagesOnly: true },
    },
  })
}

/** The two hex hashes compared in constant time. */
function sameHash(given: string, expected: string): boolean {
  const a = Buffer.from(given, 'utf8')
  const b = Buffer.from(expected, 'utf8')
  return a.length === b.length && timingSafeEqual(a, b)
}
