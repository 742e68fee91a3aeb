import { describe, expect, it } from 'vitest'
import { isSecretColumn } from '../../src/dash/secretColumns.js'

describe('isSecretColumn', () => {
  it.each(['password', 'password_hash', 'PasswordHash', 'token', 'token_hash', 'remember_token', 'api_token', 'secret', 'client_secret', 'api_key', 'apikey', 'private_key', 'salt', 'hash', 'body_hash', 'two_factor_secret'])(
    '%s is secret',
    (name) => {
      expect(isSecretColumn(name)).toBe(true)
    },
  )

  it.each(['id', 'name', 'email', 'is_admin', 'kind', 'key', 'hashtag', 'created_at', 'user_id', 'expires_at'])('%s is shown', (name) => {
    expect(isSecretColumn(name)).toBe(false)
  })
})
