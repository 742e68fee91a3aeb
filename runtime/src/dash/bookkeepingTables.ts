/**
 * The tables sign-in keeps for itself (fw make:auth): tokens, sessions and the login throttle. A row
 * written into one of them could sign anybody in, so dashboards list them read-only by default.
 *
 * @example
 * ```ts
 * new Dashboard({ readOnly: [...BOOKKEEPING_TABLES, 'audit_log'] })
 * ```
 */
export const BOOKKEEPING_TABLES: readonly string[] = Object.freeze([
  'access_tokens',
  'login_attempts',
  'login_throttles',
  'password_reset_tokens',
  'personal_access_tokens',
  'sessions',
])
