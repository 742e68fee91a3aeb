import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Request } from '../http/Request.js'
import { ValidationError } from '../http/ValidationError.js'
import { revokeAllTokens, stored } from './accessTokens.js'
import { authDb, hasAuthTable } from './AuthTables.js'
import type { AuthUser } from './currentUser.js'
import { countAttempt, throttleKey, tooManyAttempts, type ThrottleRule } from './LoginThrottle.js'
import { hashPassword } from './password.js'
import { passwordProblem } from './passwordProblem.js'
import type { PasswordReset } from './validateAuthInput.js'

/** How long a reset link works, in milliseconds: 60 minutes from when it was asked for. */
export const RESET_TOKEN_LIFETIME = 60 * 60_000

/**
 * How often a reset link may be asked for: 3 times in 15 minutes for one email (from anywhere: a mailbox is not
 * flooded), and 10 times a minute from one IP address (whatever the emails). Counted in `login_attempts`, so that
 * every process shares the counts, and counted for unknown emails as for known ones.
 */
export const RESET_THROTTLE: Readonly<{ perEmail: ThrottleRule; perIp: ThrottleRule }> = {
  perEmail: { attempts: 3, windowMs: 15 * 60_000 },
  perIp: { attempts: 10, windowMs: 60_000 },
}

/** A reset link to mail: its user and the token to put in it (the only copy: the table keeps its SHA-256). */
export interface PasswordResetLink {
  user: AuthUser
  token: string
}

/**
 * "Forgot your password?": counts the request against the email and the IP address (a 429 HttpError with
 * `Retry-After` past `RESET_THROTTLE`), then, when an account has this email, makes its reset token (32 random bytes,
 * base64url; only the SHA-256 is stored), which replaces any older one. Undefined for an unknown email: answer both
 * the same, and queue the mail (`mail.to(…).send()`), so that neither the answer nor its time tells who has an account.
 *
 * @example
 * ```ts
 * const link = await requestPasswordReset(request, email)
 * if (link) await mail.to(link.user.email).send(new ResetPasswordMail({ name: link.user.name, url: … }))
 * return Response.json({ message: 'If an account has this email, a link to reset its password is on its way.' })
 * ```
 */
export async function requestPasswordReset(request: Request, email: string): Promise<PasswordResetLink | undefined> {
  const now = Date.now()
  await authDb().deleteFrom('login_attempts').where('reset_at', '<=', now).execute()
  for (const [key, rule] of [
    [`password-reset|ip|${request.ip()}`, RESET_THROTTLE.perIp],
    [`password-reset|email|${email}`, RESET_THROTTLE.perEmail],
  ] as const) {
    const count = await countAttempt(throttleKey(key), rule, now)
    if (count.attempts > rule.attempts) throw tooManyAttempts(count.resetAt - now, 'password reset requests')
  }
  const user = await authDb().selectFrom('users').select(['id', 'name', 'email']).where('email', '=', email).executeTakeFirst()
  if (!user) return undefined
  const token = randomBytes(32).toString('base64url')
  const row = { user_id: Number(user.id), token_hash: tokenHash(token), created_at: new Date(now).toISOString() }
  // One statement: the newer token replaces the older, whose link stops working.
  await authDb()
    .insertInto('password_reset_tokens')
    .values(row)
    .onConflict((conflict) => conflict.column('user_id').doUpdateSet({ token_hash: row.token_hash, created_at: row.created_at }))
    .execute()
  return { user: { id: Number(user.id), name: user.name, email: user.email }, token }
}

/**
 * The user a reset link is for, while the link is good (its token is the user's latest, unused, under 60 minutes
 * old); undefined otherwise. It uses nothing up: for the page that shows the form.
 *
 * @example
 * ```ts
 * if (!(await passwordResetUser(email, token))) throw new HttpError(404, 'This password reset link is invalid or has expired.')
 * ```
 */
export async function passwordResetUser(email: string, token: string): Promise<AuthUser | undefined> {
  return (await pendingReset(email, token))?.user
}

/**
 * Whether a reset link that `requestPasswordReset` made still works: its token is the user's latest (no later
 * request replaced it), unused, and under 60 minutes old. What the reset mail's `shouldSend()` asks, so that a mail
 * queued a while ago, or sent again by `fw queue:retry`, never mails a dead link, nor one a later mail replaced.
 *
 * @example
 * ```ts
 * override shouldSend(): Promise<boolean> {
 *   return passwordResetIsCurrent(this.data.reset)
 * }
 * ```
 */
export async function passwordResetIsCurrent(link: PasswordResetLink): Promise<boolean> {
  return (await pendingReset(link.user.email, link.token)) !== undefined
}

/**
 * Sets a new password from a reset link, and returns its user; undefined when the link is not good (see
 * `passwordResetUser`). A password `passwordProblem` refuses throws a ValidationError (422) and leaves the link
 * usable. Otherwise the link is used up (of two requests with it, one wins), every API token and browser session of
 * the user is revoked, and no one is signed in: the user signs in with the new password.
 *
 * @example
 * ```ts
 * const user = await resetPassword(data)
 * if (!user) throw new ValidationError({ token: ['This password reset link is invalid or has expired.'] })
 * await mail.to(user.email).send(new PasswordChangedMail({ name: user.name }))
 * ```
 */
export async function resetPassword(reset: PasswordReset): Promise<AuthUser | undefined> {
  const pending = await pendingReset(reset.email, reset.token)
  if (!pending) return undefined
  const problem = passwordProblem(reset.password, pending.user)
  if (problem) throw new ValidationError({ password: [problem] })
  const password_hash = await hashPassword(reset.password)
  const used = await authDb()
    .deleteFrom('password_reset_tokens')
    .where('user_id', '=', pending.user.id)
    .where('token_hash', '=', pending.tokenHash)
    .executeTakeFirst()
  if (Number(used.numDeletedRows) !== 1) return undefined
  await authDb().updateTable('users').set({ password_hash }).where('id', '=', pending.user.id).execute()
  await revokeAllTokens(pending.user.id)
  return pending.user
}

/**
 * Makes every reset link of the user stop working: `changePassword` calls it, so a link asked for before any change
 * of password is void. Nothing to do in an app whose make:auth predates reset links (it has no such table).
 */
export async function forgetPasswordResets(userId: number): Promise<void> {
  if (await hasAuthTable('password_reset_tokens')) await authDb().deleteFrom('password_reset_tokens').where('user_id', '=', userId).execute()
}

/** The user and stored hash of a good link, its token compared with the stored hash in constant time. */
async function pendingReset(email: string, token: string): Promise<{ user: AuthUser; tokenHash: string } | undefined> {
  const oldest = new Date(Date.now() - RESET_TOKEN_LIFETIME)
  const found = await authDb()
    .selectFrom('password_reset_tokens')
    .innerJoin('users', 'users.id', 'password_reset_tokens.user_id')
    .select(['users.id', 'users.name', 'users.email', 'password_reset_tokens.token_hash'])
    .where('users.email', '=', email.trim().toLowerCase())
    .where('password_reset_tokens.created_at', '>', stored(oldest))
    .executeTakeFirst()
  if (!found) return undefined
  const given = Buffer.from(tokenHash(token), 'hex')
  const expected = Buffer.from(found.token_hash, 'hex')
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined
  return { user: { id: Number(found.id), name: found.name, email: found.email }, tokenHash: found.token_hash }
}

function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}
