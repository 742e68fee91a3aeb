import type { StandardSchemaV1 } from '@standard-schema/spec'
import type { ValidationMessages } from '../http/ValidationError.js'
import { EMAIL_ADDRESS_PATTERN } from '../mail/address.js'
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './passwordProblem.js'
import { asFields, checkCredentials, checkEmail, checkPasswordChange, checkPasswordReset, checkRegistration, MAX_LENGTH, type Validated } from './validateAuthInput.js'

type JsonSchema = Record<string, unknown>

/** A Standard Schema that also gives its JSON Schema (Standard JSON Schema), as zod 4's schemas do. */
export interface AuthBody<Output> extends StandardSchemaV1<unknown, Output> {
  readonly '~standard': StandardSchemaV1.Props<unknown, Output> & {
    readonly jsonSchema: { input(options: { target: string }): JsonSchema; output(options: { target: string }): JsonSchema }
  }
}

// As strict as the checks (validateAuthInput.ts), so that what the document allows is what the controllers accept: a
// field the check trims must hold something besides spaces (`\S`), and an email is `isEmailAddress`'s grammar between
// the spaces the check trims.
const filled = { type: 'string', minLength: 1, maxLength: MAX_LENGTH, pattern: String.raw`\S` }
const email = { type: 'string', minLength: 1, maxLength: MAX_LENGTH, pattern: String.raw`^\s*${EMAIL_ADDRESS_PATTERN}\s*$` }
const password = {
  type: 'string',
  minLength: MIN_PASSWORD_LENGTH,
  maxLength: MAX_PASSWORD_LENGTH,
  description: `At least ${MIN_PASSWORD_LENGTH} characters, not a common password, and not the account's email or name.`,
}
const anyPassword = { type: 'string', minLength: 1, maxLength: MAX_PASSWORD_LENGTH }

/**
 * A body of make:auth's routes as a contract (`.body(registrationBody)`), so that `/openapi.json`, `/docs` and the
 * typed client describe it. Its checks are the `validate…` functions' own, which the generated controllers call: the
 * same rules and messages, a JSON body or a form alike.
 */
function authBody<Output>(properties: Record<string, JsonSchema>, required: string[], check: (input: Record<string, unknown>) => Validated<Output>): AuthBody<Output> {
  const schema = (): JsonSchema => ({ type: 'object', properties, required })
  return {
    '~standard': {
      version: 1,
      vendor: 'fw',
      validate(value) {
        const { data, errors } = check(asFields(value))
        return errors ? { issues: issuesOf(errors) } : { value: data }
      },
      jsonSchema: { input: schema, output: schema },
    },
  }
}

function issuesOf(errors: ValidationMessages): StandardSchemaV1.Issue[] {
  return Object.entries(errors).flatMap(([field, messages]) => messages.map((message) => ({ message, path: [field] })))
}

/** POST /register: a name, an email, a password (`passwordProblem`'s rules) and the same password again. */
export const registrationBody = authBody(
  { name: filled, email, password, password_confirmation: password },
  ['name', 'email', 'password', 'password_confirmation'],
  (input) => checkRegistration(input, { confirmed: true }),
)

/** POST /login: an email and a password; `remember` ("on" from a form, or true) keeps the session 30 days. */
export const credentialsBody = authBody(
  { email: filled, password: anyPassword, remember: { anyOf: [{ type: 'boolean' }, { const: 'on' }] } },
  ['email', 'password'],
  checkCredentials,
)

/** POST /forgot-password: an email. */
export const emailBody = authBody({ email }, ['email'], checkEmail)

/** GET /reset-password/{token}?email=…: the query of the mailed link, the email the link was made for. */
export const resetLinkQuery = authBody({ email }, ['email'], checkEmail)

/** POST /reset-password: the link's token and email, and the new password twice. */
export const passwordResetBody = authBody(
  { token: { type: 'string', minLength: 1, maxLength: MAX_LENGTH }, email, password, password_confirmation: password },
  ['token', 'email', 'password', 'password_confirmation'],
  checkPasswordReset,
)

/** POST /password (signed in): the current password, and the new one (`passwordProblem`'s rules, checked on change). */
export const passwordChangeBody = authBody({ current_password: anyPassword, password }, ['current_password', 'password'], checkPasswordChange)
