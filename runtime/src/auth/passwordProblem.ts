import { COMMON_PASSWORDS } from './commonPasswords.js'

/** The shortest password accepted. */
export const MIN_PASSWORD_LENGTH = 8
/** Longer passwords only cost hashing time; no one types more than this. */
export const MAX_PASSWORD_LENGTH = 1024

/**
 * What is wrong with a new password, as a message for its field, or undefined when it will do: at least
 * 8 characters (and at most 1024), not one of the commonest leaked passwords, not one character repeated,
 * and not the account's own email, the part of it before `@`, or its name.
 *
 * @example
 * ```ts
 * passwordProblem('password', { email: 'ada@example.com' }) // 'This password is too common. Choose another one.'
 * ```
 */
export function passwordProblem(password: string, account: { email?: string; name?: string } = {}): string | undefined {
  if (password.length < MIN_PASSWORD_LENGTH) return `The password must be at least ${MIN_PASSWORD_LENGTH} characters.`
  if (password.length > MAX_PASSWORD_LENGTH) return `The password may not be longer than ${MAX_PASSWORD_LENGTH} characters.`
  const lower = password.normalize('NFKC').trim().toLowerCase()
  if (COMMON_PASSWORDS.has(lower) || /^(.)\1*$/su.test(lower)) return 'This password is too common. Choose another one.'
  const email = (account.email ?? '').trim().toLowerCase()
  const name = (account.name ?? '').trim().toLowerCase()
  const own = [email, email.split('@')[0] ?? '', name, name.replace(/\s+/g, '')].filter((value) => value.length > 0)
  if (own.includes(lower) || own.includes(lower.replace(/\s+/g, ''))) return 'The password must not be your email address or name.'
  return undefined
}
