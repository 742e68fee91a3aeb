import { createHash, randomBytes } from 'node:crypto'
import { sql, type RawBuilder } from 'kysely'
import { authDb, type TokenKind } from './AuthTables.js'
import type { AuthUser } from './currentUser.js'

const DAY = 24 * 60 * 60 * 1000
/** How long a token signs its user in, in milliseconds: 30 days for API tokens, 14 for browser sessions. */
export const TOKEN_LIFETIME: Readonly<Record<TokenKind, number>> = { api: 30 * DAY, session: 14 * DAY }
/** How long a browser signed in with "remember me" stays signed in, idle or not: 30 days. */
export const REMEMBER_LIFETIME = 30 * DAY

/**
 * A new token for the user, stored as its SHA-256 in `access_tokens`: hand it out once, it cannot be read
 * back. A token is 32 random bytes, base64url, and lasts `TOKEN_LIFETIME[kind]` unless `lifetimeMs` says otherwise.
 *
 * @example
 * ```ts
 * const { token, expiresAt } = await issueToken(user.id, 'api')
 * return Response.json({ token, token_type: 'Bearer', expires_at: expiresAt })
 * ```
 */
export async function issueToken(userId: number, kind: TokenKind, options: { lifetimeMs?: number } = {}): Promise<{ token: string; expiresAt: string }> {
  const token = randomBytes(32).toString('base64url')
  const now = new Date()
  const expiresAt = new Date(now.getTime() + (options.lifetimeMs ?? TOKEN_LIFETIME[kind])).toISOString()
  // Housekeeping: the user's expired tokens go when a new one comes.
  await authDb().deleteFrom('access_tokens').where('user_id', '=', userId).where('expires_at', '<=', stored(now)).execute()
  await authDb().insertInto('access_tokens').values({ user_id: userId, token_hash: tokenHash(token), kind, expires_at: expiresAt }).execute()
  return { token, expiresAt }
}

/** The user a token of this kind signs in, while it is neither expired nor revoked. */
export async function tokenUser(token: string, kind: TokenKind): Promise<AuthUser | undefined> {
  const now = new Date()
  const found = await authDb()
    .selectFrom('access_tokens')
    .innerJoin('users', 'users.id', 'access_tokens.user_id')
    .select(['access_tokens.id as tokenId', 'access_tokens.last_used_at', 'users.id', 'users.name', 'users.email'])
    .where('access_tokens.token_hash', '=', tokenHash(token))
    .where('access_tokens.kind', '=', kind)
    .where('access_tokens.expires_at', '>', stored(now))
    .executeTakeFirst()
  if (!found) return undefined
  // Recorded at most once a minute, so that a busy client does not write on every request.
  if (found.last_used_at === null || found.last_used_at.getTime() < now.getTime() - 60_000) {
    await authDb().updateTable('access_tokens').set({ last_used_at: now.toISOString() }).where('id', '=', found.tokenId).execute()
  }
  return { id: Number(found.id), name: found.name, email: found.email }
}

/** Signs one token out for good. */
export async function revokeToken(token: string): Promise<void> {
  await authDb().deleteFrom('access_tokens').where('token_hash', '=', tokenHash(token)).execute()
}

/** Signs the user out everywhere: every API token and every browser session. */
export async function revokeAllTokens(userId: number): Promise<void> {
  await authDb().deleteFrom('access_tokens').where('user_id', '=', userId).execute()
}

/**
 * A time as the token columns hold it (ISO 8601 with its `T` and `Z`, see `AccessTokensTable`), to compare
 * with them: SQLite compares text, where Fw's usual `YYYY-MM-DD HH:MM:SS.SSS` would sort before a `T`.
 */
export function stored(time: Date): RawBuilder<Date> {
  return sql<Date>`${time.toISOString()}`
}

function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}
