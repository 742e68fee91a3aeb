import { describe, expect, it } from 'vitest'
import { credentialsBody, passwordChangeBody, registrationBody } from '../../src/auth.js'
import { jsonSchemaOf } from '../../src/openapi/jsonSchemaOf.js'

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
      issues: [{ message: 'The current password field is required.', path: ['current_password'] }],
    })
  })

  it('give their JSON Schema through Standard JSON Schema, as the document reads it', () => {
    expect(jsonSchemaOf(credentialsBody, 'input')).toEqual({
      type: 'object',
      properties: {
        email: { type: 'string', maxLength: 255 },
        password: { type: 'string', minLength: 1, maxLength: 1024 },
        remember: { anyOf: [{ type: 'boolean' }, { const: 'on' }] },
      },
      required: ['email', 'password'],
    })
  })
})
