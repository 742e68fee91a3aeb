import { Ajv2020 } from 'ajv/dist/2020.js'
import { describe, expect, it } from 'vitest'
import { meAnswer, messageAnswer, passwordChangedAnswer, resetLinkAnswer, signedInAnswer, verificationNoticeAnswer } from '../../src/auth.js'
import { jsonSchemaOf } from '../../src/openapi/jsonSchemaOf.js'

const user = { id: 1, name: 'Ada', email: 'ada@example.com' }
const token = { token: 'abc', token_type: 'Bearer', expires_at: '2026-01-01T00:00:00.000Z' }

describe("fw-runtime/auth's answers as Standard Schemas", () => {
  it('take what the controllers answer, and name the field of what strays from it', async () => {
    const answers = [
      [messageAnswer, { message: 'Logged out' }],
      [signedInAnswer, { user, ...token }],
      [signedInAnswer, { user }],
      [meAnswer, { user, email_verified_at: null }],
      [meAnswer, { user, email_verified_at: '2026-01-01T00:00:00.000Z' }],
      [passwordChangedAnswer, { message: 'Password changed', ...token }],
      [verificationNoticeAnswer, { message: 'Your email is verified.', email: 'ada@example.com' }],
      [resetLinkAnswer, { token: 'abc', email: 'ada@example.com' }],
    ] as const
    for (const [answer, value] of answers) {
      expect(await answer['~standard'].validate(value)).toEqual({ value })
      // The JSON Schema of the document says the same.
      expect(new Ajv2020({ strict: false, validateFormats: false }).validate(jsonSchemaOf(answer, 'output')!, value)).toBe(true)
    }

    expect(await meAnswer['~standard'].validate({ user: { id: '1', name: 'Ada' } })).toEqual({
      issues: [
        { message: 'Missing email_verified_at', path: ['email_verified_at'] },
        { message: 'Missing email', path: ['user', 'email'] },
        { message: 'Expected integer, got string', path: ['user', 'id'] },
      ],
    })
    expect(await signedInAnswer['~standard'].validate({ user, token_type: 'Basic' })).toEqual({ issues: [{ message: 'Expected "Bearer"', path: ['token_type'] }] })
    expect(await messageAnswer['~standard'].validate([])).toEqual({ issues: [{ message: 'Expected object, got array', path: [] }] })
  })
})
