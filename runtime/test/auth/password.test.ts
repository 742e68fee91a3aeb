import { describe, expect, it } from 'vitest'
import { hashPassword, verifyPassword } from '../../src/auth/password.js'
import { passwordProblem } from '../../src/auth/passwordProblem.js'

describe('hashPassword and verifyPassword', () => {
  it('stores scrypt$N$r$p$salt$hash with a random salt, and checks the password against it', async () => {
    const [one, two] = await Promise.all([hashPassword('correct horse'), hashPassword('correct horse')])
    expect(one).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{86}$/)
    expect(one).not.toBe(two)
    expect(await verifyPassword('correct horse', one)).toBe(true)
    expect(await verifyPassword('correct horsf', one)).toBe(false)
  })

  it('is false for anything that is not such a hash, and refuses parameters that would exhaust memory', async () => {
    const stored = await hashPassword('secret words')
    const [, , , , salt, hash] = stored.split('$')
    for (const bad of ['', 'plain text', 'bcrypt$1$2$3$4$5', `scrypt$32768$8$1$${salt}$`, `${stored}$extra`, `scrypt$${2 ** 24}$8$1$${salt}$${hash}`, `scrypt$x$8$1$${salt}$${hash}`]) {
      expect(await verifyPassword('secret words', bad)).toBe(false)
    }
  })
})

describe('passwordProblem', () => {
  it('accepts a long uncommon password and refuses short, common, repeated or personal ones (finding 5)', () => {
    const account = { email: 'ada@example.com', name: 'Ada Lovelace' }
    expect(passwordProblem('correct horse battery staple', account)).toBeUndefined()
    expect(passwordProblem('short', account)).toBe('The password must be at least 8 characters.')
    expect(passwordProblem('x'.repeat(1025), account)).toBe('The password may not be longer than 1024 characters.')
    for (const common of ['password', 'PASSWORD', '12345678', 'iloveyou', 'qwerty123', 'zzzzzzzzzz']) {
      expect(passwordProblem(common, account)).toBe('This password is too common. Choose another one.')
    }
    for (const own of ['ada@example.com', 'Ada@Example.com', 'adalovelace', 'Ada Lovelace']) {
      expect(passwordProblem(own, { ...account, email: own.includes('@') ? own.toLowerCase() : account.email })).toBe('The password must not be your email address or name.')
    }
  })
})
