import { authDb } from './AuthTables.js'
import { stored } from './accessTokens.js'

/**
 * make:auth's housekeeping, for a scheduled job (`App/Jobs/PruneAuthTables.ts`, hourly): deletes every expired
 * sign-in token (API tokens and browser sessions) and every throttle count whose window has ended. Neither is
 * needed any more: an expired token signs no one in and an ended window counts nothing, so this only keeps the
 * tables small (a request prunes what it meets too). Returns how many rows went.
 *
 * @example
 * ```ts
 * const { tokens, loginAttempts } = await pruneAuthTables()
 * ```
 */
export async function pruneAuthTables(): Promise<{ tokens: number; loginAttempts: number }> {
  const now = new Date()
  const tokens = await authDb().deleteFrom('access_tokens').where('expires_at', '<=', stored(now)).executeTakeFirst()
  const attempts = await authDb().deleteFrom('login_attempts').where('reset_at', '<=', now.getTime()).executeTakeFirst()
  return { tokens: Number(tokens.numDeletedRows), loginAttempts: Number(attempts.numDeletedRows) }
}
