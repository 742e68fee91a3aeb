import type { ColumnType, Generated, Kysely } from 'kysely'
import { db } from '../database/db.js'

/** The `users` columns that fw-runtime/auth reads and writes; an application's table may have more. */
export interface AuthUsersTable {
  id: Generated<number>
  name: string
  email: string
  /** `scrypt$N$r$p$salt$hash` (see `hashPassword`), never the password itself. */
  password_hash: string
  /** When the user followed the link of their verification mail (`verifyEmail`); null until then. */
  email_verified_at: ColumnType<Date | string | null, string | null | undefined, string | null>
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

export interface PasswordResetTokensTable {
  /** The primary key: a user has one pending reset link at most, and a newer one replaces it. */
  user_id: number
  /** The SHA-256 of the link's token, in hex: a copy of the table resets nobody's password. */
  token_hash: string
  /** Written as ISO 8601 in UTC, as `access_tokens.expires_at` (see there); the link lasts 60 minutes from it. */
  created_at: ColumnType<Date, string, string>
}

/** The tables `fw make:auth`'s migrations create. */
export interface AuthTables {
  users: AuthUsersTable
  access_tokens: AccessTokensTable
  login_attempts: LoginAttemptsTable
  password_reset_tokens: PasswordResetTokensTable
}

/**
 * The application's database, typed with the auth tables only: the runtime does not add them to the
 * application's `Tables`, where its own User model declares `users` with all of its columns.
 */
export function authDb(): Kysely<AuthTables> {
  return db() as unknown as Kysely<AuthTables>
}

/** Tables seen in a database, per database: found once, a table stays (a missing one is looked for again). */
const seen = new WeakMap<object, Set<string>>()

/**
 * Whether the application's database has the table: an app made by an older `fw make:auth` has no
 * `password_reset_tokens` until it runs `fw make:auth --upgrade` and `fw migrate`, and must keep working meanwhile.
 */
export async function hasAuthTable(name: keyof AuthTables): Promise<boolean> {
  const database = authDb()
  const tables = seen.get(database) ?? new Set<string>()
  if (tables.has(name)) return true
  const found = (await database.introspection.getTables()).some((table) => table.name === name)
  if (found) seen.set(database, tables.add(name))
  return found
}
