import type { Request } from '../http/Request.js'
import type { ValidationMessages } from '../http/ValidationError.js'
import { isEmailAddress } from '../mail/address.js'
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, passwordProblem } from './passwordProblem.js'

export type Validated<T> = { data: T; errors?: undefined } | { data?: undefined; errors: ValidationMessages }

export interface Registration {
  name: string
  email: string
  password: string
}

export interface Credentials {
  email: string
  password: string
}

/** A new password from a reset link's form: the link's token and email, and the password typed twice. */
export interface PasswordReset {
  token: string
  email: string
  password: string
}

/** The longest name and email. */
export const MAX_LENGTH = 255

/**
 * Checks a registration from the request's BODY (never its query string, which lands in logs and history):
 * a name, a valid email (trimmed and in lower case; an address the mailer takes, `isEmailAddress`), and a password
 * that `passwordProblem` accepts. With `confirmed`, the same password again in `password_confirmation` (make:auth's
 * form asks for it; an app made by an older make:auth, whose form has no such field, calls this without it and keeps
 * working).
 *
 * @example
 * ```ts
 * const { data, errors } = validateRegistration(request, { confirmed: true })
 * if (errors) throw new ValidationError(errors)
 * ```
 */
export function validateRegistration(request: Request, options: { confirmed?: boolean } = {}): Validated<Registration> {
  return checkRegistration(bodyOf(request), options)
}

/** `validateRegistration` of a body already read: for the `registrationBody` contract. */
export function checkRegistration(input: Record<string, unknown>, options: { confirmed?: boolean } = {}): Validated<Registration> {
  const errors: ValidationMessages = {}
  const name = text(input.name).trim()
  if (name === '') add(errors, 'name', 'The name field is required.')
  else if (name.length > MAX_LENGTH) add(errors, 'name', `The name may not be longer than ${MAX_LENGTH} characters.`)
  const email = checkedEmail(errors, input.email)
  const password = text(input.password)
  const problem = password === '' ? 'The password field is required.' : passwordProblem(password, { email, name })
  if (problem) add(errors, 'password', problem)
  if (options.confirmed) confirmed(errors, password, input.password_confirmation)
  return Object.keys(errors).length > 0 ? { errors } : { data: { name, email, password } }
}

/**
 * Checks the email of a "forgot your password?" form, from the body: present, and shaped as an email. Whether an
 * account has it is never told.
 *
 * @example
 * ```ts
 * const { data, errors } = validateEmail(request)
 * if (errors) throw new ValidationError(errors)
 * ```
 */
export function validateEmail(request: Request): Validated<{ email: string }> {
  return checkEmail(bodyOf(request))
}

/** `validateEmail` of a body already read: for the `emailBody` contract. */
export function checkEmail(input: Record<string, unknown>): Validated<{ email: string }> {
  const errors: ValidationMessages = {}
  const email = checkedEmail(errors, input.email)
  return Object.keys(errors).length > 0 ? { errors } : { data: { email } }
}

/**
 * Checks a new password from a reset link's form, from the body: the link's `token` and `email`, a `password`
 * and its `password_confirmation`. Whether the password is acceptable for that account (`passwordProblem`, which
 * knows the account's name) is `resetPassword`'s to say, once the link is known to be good.
 */
export function validatePasswordReset(request: Request): Validated<PasswordReset> {
  return checkPasswordReset(bodyOf(request))
}

/** `validatePasswordReset` of a body already read: for the `passwordResetBody` contract. */
export function checkPasswordReset(input: Record<string, unknown>): Validated<PasswordReset> {
  const errors: ValidationMessages = {}
  const token = text(input.token)
  const email = checkedEmail(errors, input.email)
  const password = text(input.password)
  if (token === '' || token.length > MAX_LENGTH) add(errors, 'token', 'This password reset link is invalid.')
  checkNewPasswordLength(errors, password)
  confirmed(errors, password, input.password_confirmation)
  return Object.keys(errors).length > 0 ? { errors } : { data: { token, email, password } }
}

/** A new password of a signed-in user: the current one, and the new one. */
export interface PasswordChange {
  current_password: string
  password: string
}

/**
 * Checks a change of password from a body already read (the `passwordChangeBody` contract): the current password, and a
 * new one of an acceptable length. The rest of `passwordProblem`'s rules, which know the account, are `changePassword`'s.
 */
export function checkPasswordChange(input: Record<string, unknown>): Validated<PasswordChange> {
  const errors: ValidationMessages = {}
  const current = text(input.current_password)
  const password = text(input.password)
  if (current === '') add(errors, 'current_password', 'The current password field is required.')
  else if (current.length > MAX_PASSWORD_LENGTH) add(errors, 'current_password', `The current password may not be longer than ${MAX_PASSWORD_LENGTH} characters.`)
  checkNewPasswordLength(errors, password)
  return Object.keys(errors).length > 0 ? { errors } : { data: { current_password: current, password } }
}

/** Checks a sign-in from the request's body: an email and a password, nothing about whether they are right. */
export function validateCredentials(request: Request): Validated<Credentials> {
  return checkCredentials(bodyOf(request))
}

/** `validateCredentials` of a body already read: for the `credentialsBody` contract. */
export function checkCredentials(input: Record<string, unknown>): Validated<Credentials> {
  const errors: ValidationMessages = {}
  const email = text(input.email).trim().toLowerCase()
  const password = text(input.password)
  if (email === '') add(errors, 'email', 'The email field is required.')
  else if (email.length > MAX_LENGTH) add(errors, 'email', `The email may not be longer than ${MAX_LENGTH} characters.`)
  if (password === '') add(errors, 'password', 'The password field is required.')
  else if (password.length > MAX_PASSWORD_LENGTH) add(errors, 'password', `The password may not be longer than ${MAX_PASSWORD_LENGTH} characters.`)
  return Object.keys(errors).length > 0 ? { errors } : { data: { email, password } }
}

/** The email, trimmed and in lower case, with its error added when it is missing or not an email. */
function checkedEmail(errors: ValidationMessages, value: unknown): string {
  const email = text(value).trim().toLowerCase()
  if (email === '') add(errors, 'email', 'The email field is required.')
  else if (email.length > MAX_LENGTH || !isEmailAddress(email)) add(errors, 'email', 'The email must be a valid email address.')
  return email
}

/**
 * A new password's length, the part of `passwordProblem`'s rules that needs no account: so that a body is refused
 * for it before any link or account is looked at, as its JSON Schema (`minLength`, `maxLength`) says.
 */
function checkNewPasswordLength(errors: ValidationMessages, password: string): void {
  if (password === '') add(errors, 'password', 'The password field is required.')
  else if (password.length < MIN_PASSWORD_LENGTH) add(errors, 'password', `The password must be at least ${MIN_PASSWORD_LENGTH} characters.`)
  else if (password.length > MAX_PASSWORD_LENGTH) add(errors, 'password', `The password may not be longer than ${MAX_PASSWORD_LENGTH} characters.`)
}

/** The password typed a second time must be the same: else an error on `password_confirmation`. */
function confirmed(errors: ValidationMessages, password: string, confirmation: unknown): void {
  if (password !== '' && text(confirmation) !== password) add(errors, 'password_confirmation', 'The password confirmation does not match.')
}

function bodyOf(request: Request): Record<string, unknown> {
  return asFields(request.body())
}

/** A body's fields when it is an object; anything else (absent, a list, text) has none. */
export function asFields(body: unknown): Record<string, unknown> {
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {}
}

/** A field's value when it is a string; anything else (absent, a list, a number) counts as empty. */
function text(value: unknown): string {
  return typeof value === 'string' ? value : ''
}

function add(errors: ValidationMessages, field: string, message: string): void {
  errors[field] = [...(errors[field] ?? []), message]
}
