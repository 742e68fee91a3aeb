import { randomBytes } from 'node:crypto'
import type { Request } from '../http/Request.js'
import { authDb } from './AuthTables.js'
import type { AuthUser } from './currentUser.js'
import { LoginThrottle } from './LoginThrottle.js'
import { hashPassword, verifyPassword } from './password.js'
import type { Credentials } from './validateAuthInput.js'

/** The one throttle of the process's sign-ins and registrations (its counts are in the database). */
export const loginThrottle = new LoginThrottle()

/** Checked when an email is unknown, so that a failed sign-in takes as long whether or not the email exists. */
let unknownUserHash: Promise<string> | undefined

/**
 * The user with this email and password, or undefined (which of the two was wrong is never told). The
 * attempt is counted first (`LoginThrottle`): past the limit it throws a 429 HttpError without hashing.
 *
 * @example
 * ```ts
 * const user = await attemptLogin(request, { email, password })
 * if (!user) return Response.json({ error: 'These credentials do not match our records.' }, 422)
 * ```
 */
export async function attemptLogin(request: Request, credentials: Credentials): Promise<AuthUser | undefined> {
  const keys = await loginThrottle.hit(request.ip(), credentials.email)
  const user = await authDb()
    .selectFrom('users')
    .select(['id', 'name', 'email', 'password_hash'])
    .where('email', '=', credentials.email)
    .executeTakeFirst()
  const hash = user?.password_hash ?? (await (unknownUserHash ??= hashPassword(randomBytes(32).toString('base64url'))))
  const valid = await verifyPassword(credentials.password, hash)
  if (!user || !valid) return undefined
  await loginThrottle.succeeded(keys)
  return { id: Number(user.id), name: user.name, email: user.email }
}
