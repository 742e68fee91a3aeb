/**
 * Names of columns that hold secrets: password hashes, token hashes, keys and salts. The dashboard never
 * shows, searches, sorts by or edits them, whatever the table: `password`, `password_hash`,
 * `remember_token`, `token_hash`, `api_key`, `client_secret`, `salt`, `*_hash`, …
 */
const SECRET = /password|passwd|secret|token|api_?key|private_?key|(^|_)(hash|salt|digest)$/i

/**
 * Whether a column's name says that it holds a secret. Matching by name errs on the safe side: a column
 * called `token_count` is kept out too.
 *
 * @example
 * ```ts
 * isSecretColumn('password_hash') // true
 * isSecretColumn('email') // false
 * ```
 */
export function isSecretColumn(name: string): boolean {
  return SECRET.test(name)
}
