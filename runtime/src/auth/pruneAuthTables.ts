import { authDb, hasAuthTable } from './AuthTables.js'
import { stored } from './accessTokens.js'
import { RESET_TOKEN_LIFETIME } from './passwordReset.js'

/**
 * make:auth's housekeeping, for a scheduled job (`App/Jobs/PruneAuthTables.ts`, hourly): deletes every expired
 * sign-in token (API tokens and browser sessions), every password reset link older than 60 minutes, and every
 * throttle count whose window has ended. None is needed any more: an expired token or link signs no one in and an
 * ended window counts nothing, so this only keeps the tables small (a request prunes what it meets too). Returns how
 * many rows went.
 *
 * @example
 * ```ts
 * const { tokens, passwordResets, loginAttempts } = await pruneAuthTables()
 * ```
 */
export async function pruneAuthTables(): Promise<{ tokens: number; passwordResets: number; loginAttempts: number }> {
  const now = new Date()
  const tokens = await authDb().deleteFrom('access_tokens').where('expires_at', '<=', stored(now)).executeTakeFirst()
  // An app made by an older make:auth has no reset links until it is upgraded.
  const resets = (await hasAuthTable('password_reset_tokens'))
    ? Number((await authDb().deleteFrom('password_reset_tokens').where('created_at', '<=', stored(new Date(now.getTime() - RESET_TOKEN_LIFETIME))).executeTakeFirst()).numDeletedRows)
    : 0
  const attempts = await authDb().deleteFrom('login_attempts').where('reset_at', '<=', now.getTime()).executeTakeFirst()
  return { tokens: Number(tokens.numDeletedRows), passwordResets: resets, loginAttempts: Number(attempts.numDeletedRows) }
}
