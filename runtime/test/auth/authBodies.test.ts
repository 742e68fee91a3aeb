import { Ajv2020 } from 'ajv/dist/2020.js'
import { describe, expect, it } from 'vitest'
import { credentialsBody, emailBody, passwordChangeBody, passwordResetBody, registrationBody, resetLinkQuery, type AuthBody } from '../../src/auth.js'
import { isEmailAddress } from '../../src/mail/address.js'
import { jsonSchemaOf } from '../../src/openapi/jsonSchemaOf.js'

/** Whether a body passes the JSON Schema the document gives for it (Ajv, as a generated client or a fuzzer reads it). */
function documentedValid(body: AuthBody<unknown>): (value: unknown) => boolean {
  const check = new Ajv2020({ strict: false, validateFormats: false }).compile(jsonSchemaOf(body, 'input')!)
  return (value) => check(value)
}

/** Whether the body's own check (the controllers' `validate…`) accepts it. */
async function checkAccepts(body: AuthBody<unknown>, value: unknown): Promise<boolean> {
  return (await body['~standard'].validate(value)).issues === undefined
}

describe("fw-runtime/auth's bodies as Standard Schemas", () => {
  it('check with the rules and messages of the validate… functions, naming each field in the issue\'s path', async () => {
    const account = { name: ' Ada ', email: 'ADA@example.com', password: 'correct horse battery staple', password_confirmation: 'correct horse battery staple' }
    expect(await registrationBody['~standard'].validate(account)).toEqual({
      value: { name: 'Ada', email: 'ada@example.com', password: 'correct horse battery staple' },
    })
    expect(await registrationBody['~standard'].validate({ ...account, email: 'nope', password_confirmation: 'other' })).toEqual({
      issues: [
        { message: 'The email must be a valid email address.', path: ['email'] },
        { message: 'The password confirmation does not match.', path: ['password_confirmation'] },
      ],
    })
    expect(await credentialsBody['~standard'].validate('not an object')).toEqual({
      issues: [
        { message: 'The email field is required.', path: ['email'] },
        { message: 'The password field is required.', path: ['password'] },
      ],
    })
    expect(await passwordChangeBody['~standard'].validate({ password: 'x' })).toEqual({
      issues: [
        { message: 'The current password field is required.', path: ['current_password'] },
        { message: 'The password must be at least 8 characters.', path: ['password'] },
      ],
    })
  })

  it('give their JSON Schema through Standard JSON Schema, as the document reads it', () => {
    expect(jsonSchemaOf(credentialsBody, 'input')).toEqual({
      type: 'object',
      properties: {
        email: { type: 'string', minLength: 1, maxLength: 255, pattern: '\\S' },
        password: { type: 'string', minLength: 1, maxLength: 1024 },
        remember: { anyOf: [{ type: 'boolean' }, { const: 'on' }] },
      },
      required: ['email', 'password'],
    })
  })

  it('document exactly the emails the checks take: isEmailAddress\'s grammar (a dot in the domain), between spaces the check trims', async () => {
    const emails = ['ada@example.com', ' Ada@Example.com ', 'ada@localhost', '0@com', 'ada@@example.com', 'ada example@example.com', 'ada<b>@example.com', 'a@b.c', '', '   ', 'ada@example.com\nBcc: eve@example.com']
    for (const body of [emailBody, resetLinkQuery]) {
      const documented = documentedValid(body)
      for (const email of emails) {
        expect([email, documented({ email })]).toEqual([email, await checkAccepts(body, { email })])
      }
    }
    expect(emails.filter((email) => documentedValid(emailBody)({ email }))).toEqual(['ada@example.com', ' Ada@Example.com ', 'a@b.c'])
    expect(isEmailAddress('0@com')).toBe(false)
  })

  it('document the lengths the checks hold: a sign-in email that is more than spaces, a new password of 8 at least', async () => {
    const signIn = documentedValid(credentialsBody)
    for (const email of ['', '  ', 'ada', 'x'.repeat(256)]) {
      const body = { email, password: 'secret' }
      expect([email, signIn(body)]).toEqual([email, await checkAccepts(credentialsBody, body)])
    }
    const reset = documentedValid(passwordResetBody)
    for (const password of ['', 'short12', 'a long passphrase', 'x'.repeat(1025)]) {
      const body = { token: 't', email: 'ada@example.com', password, password_confirmation: password }
      expect([password, reset(body)]).toEqual([password, await checkAccepts(passwordResetBody, body)])
    }
    expect(jsonSchemaOf(passwordResetBody, 'input')).toMatchObject({ properties: { password: { minLength: 8, maxLength: 1024 } } })
    const change = documentedValid(passwordChangeBody)
    for (const password of ['short12', 'a long passphrase']) {
      const body = { current_password: 'old one', password }
      expect([password, change(body)]).toEqual([password, await checkAccepts(passwordChangeBody, body)])
    }
    const register = documentedValid(registrationBody)
    for (const name of ['', '   ', 'Ada']) {
      const body = { name, email: 'ada@example.com', password: 'a long passphrase', password_confirmation: 'a long passphrase' }
      expect([name, register(body)]).toEqual([name, await checkAccepts(registrationBody, body)])
    }
  })
})
