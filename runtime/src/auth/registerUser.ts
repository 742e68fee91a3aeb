import type { Request } from '../http/Request.js'
import { authDb } from './AuthTables.js'
import type { AuthUser } from './currentUser.js'
import { loginThrottle } from './attemptLogin.js'
import { hashPassword } from './password.js'
import type { Registration } from './validateAuthInput.js'

/**
 * Creates the user with a hash of the password; undefined when the email is taken. The password is hashed
 * either way, so a taken email answers no faster than a new one, and the attempt counts against the
 * address's limit first (a 429 HttpError past it).
 *
 * @example
 * ```ts
 * const user = await registerUser(request, data)
 * if (!user) throw new ValidationError({ email: ['The email has already been taken.'] })
 * ```
 */
export async function registerUser(request: Request, registration: Registration): Promise<AuthUser | undefined> {
  await loginThrottle.hit(request.ip())
  const password_hash = await hashPassword(registration.password)
  // One statement: of two registrations of one email at the same moment, the unique index lets one through.
  const created = await authDb()
    .insertInto('users')
    .values({ name: registration.name, email: registration.email, password_hash })
    .onConflict((conflict) => conflict.column('email').doNothing())
    .returning(['id', 'name', 'email'])
    .executeTakeFirst()
  return created && { id: Number(created.id), name: created.name, email: created.email }
}
