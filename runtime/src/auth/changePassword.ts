import { ValidationError } from '../http/ValidationError.js'
import { revokeAllTokens } from './accessTokens.js'
import { authDb } from './AuthTables.js'
import { hashPassword } from './password.js'
import { forgetPasswordResets } from './passwordReset.js'
import { passwordProblem } from './passwordProblem.js'

/**
 * Sets a user's new password and signs the user out everywhere: every API token and every browser session
 * (each is a row of `access_tokens`) is revoked, and so is any password reset link not used yet, so whoever
 * learned the old password, or holds an old token, cookie or link, is locked out. A password `passwordProblem` refuses throws a ValidationError (422).
 * To keep the browser that made the change signed in, call `signIn(request, user)` afterwards.
 *
 * @example
 * ```ts
 * await changePassword(user.id, request.input('password'))
 * await signIn(request, user)
 * ```
 */
export async function changePassword(userId: number, password: string): Promise<void> {
  const user = await authDb().selectFrom('users').select(['name', 'email']).where('id', '=', userId).executeTakeFirst()
  if (!user) throw new Error(`No user with id ${userId}`)
  const problem = passwordProblem(password, user)
  if (problem) throw new ValidationError({ password: [problem] })
  const password_hash = await hashPassword(password)
  await authDb().updateTable('users').set({ password_hash }).where('id', '=', userId).execute()
  await revokeAllTokens(userId)
  await forgetPasswordResets(userId)
}
