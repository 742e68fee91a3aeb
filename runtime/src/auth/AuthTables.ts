import type { ColumnType, Generated, Kysely } from 'kysely'
import { db } from '../database/db.js'

/** The `users` columns that fw-runtime/auth reads and writes; an application's table may have more. */
export interface AuthUsersTable {
  id: Generated<number>
  name: string
  email: string
  /** `scrypt$N$r$p$salt$hash` (see `hashPassword`), never the password itself. */
  password_hash: string
}

/** `api`: sent as `Authorization: Bearer <token>`; `session`: held by a browser's encrypted session cookie. */
export type TokenKind = 'api' | 'session'

export interface AccessTokensTable {
  id: Generated<number>
  user_id: number
  /** The SHA-256 of the token, in hex: a copy of the table signs nobody in. */
  token_hash: string
  kind: TokenKind
  /**
   * Read as a Date; written as ISO 8601 in UTC (`new Date().toISOString()`), the form rows have always had,
   * so that SQLite, which compares them as text, orders new and old rows alike.
   */
  expires_at: ColumnType<Date, string, string>
  last_used_at: ColumnType<Date | null, string | null, string | null>
}

export interface LoginAttemptsTable {
  /** The SHA-256 of what is counted (`email|ip`, or `ip|…`), in hex. */
  key: string
  attempts: number
  /** When the count starts again, in milliseconds since 1970 (a bigint, read as a number: it is a safe integer). */
  reset_at: number
}

/** The tables `fw make:auth`'s migrations create. */
export interface AuthTables {
  users: AuthUsersTable
  access_tokens: AccessTokensTable
  login_attempts: LoginAttemptsTable
}

/**
 * The application's database, typed with the auth tables only: the runtime does not add them to the
 * application's `Tables`, where its own User model declares `users` with all of its columns.
 */
export function authDb(): Kysely<AuthTables> {
  return db() as unknown as Kysely<AuthTables>
}
