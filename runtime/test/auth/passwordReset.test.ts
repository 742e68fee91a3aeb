import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Kysely } from 'kysely'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { issueToken, tokenUser } from '../../src/auth/accessTokens.js'
import { changePassword } from '../../src/auth/changePassword.js'
import { hashPassword, verifyPassword } from '../../src/auth/password.js'
import { passwordResetUser, requestPasswordReset, resetPassword, RESET_TOKEN_LIFETIME } from '../../src/auth/passwordReset.js'
import { pruneAuthTables } from '../../src/auth/pruneAuthTables.js'
import { Container } from '../../src/container/Container.js'
import { createDatabase } from '../../src/database/createDatabase.js'
import { HttpError } from '../../src/http/HttpError.js'
import type { Request } from '../../src/http/Request.js'
import { ValidationError } from '../../src/http/ValidationError.js'
import { startPostgres, type TestPostgres } from '../support/postgres.js'
import { createAuthTables } from './authApp.js'

const OLD = 'correct horse battery staple'
const NEW = 'a brand new passphrase'

let postgres: TestPostgres
let folder: string
beforeAll(async () => {
  postgres = await startPostgres()
  folder = mkdtempSync(join(tmpdir(), 'fw-reset-'))
}, 60_000)
afterAll(() => {
  postgres?.stop()
  if (folder) rmSync(folder, { recursive: true, force: true })
})

/** What requestPasswordReset reads of a request: its client's address. */
const from = (ip: string) => ({ ip: () => ip }) as unknown as Request

describe.each([
  { name: 'SQLite', open: () => createDatabase<any>('sqlite:reset.sqlite', folder) },
  { name: 'PostgreSQL', open: () => createDatabase<any>(postgres.url) },
])('password reset links on $name', ({ open }) => {
  let db: Kysely<any>
  let ip = 0
  /** A new address for each request, so that only the per-email count is in play. */
  const request = () => from(`192.0.2.${++ip % 250}`)

  beforeEach(async () => {
    db = open()
    Container.setInstance(new Container().instance('db', db))
    await createAuthTables(db)
    await db.insertInto('users').values({ name: 'Ada', email: 'ada@example.com', password_hash: await hashPassword(OLD) }).execute()
    return async () => {
      Container.setInstance(undefined)
      await db.destroy()
    }
  })

  const rows = () => db.selectFrom('password_reset_tokens').selectAll().execute()
  const passwordHash = async () => (await db.selectFrom('users').select('password_hash').executeTakeFirstOrThrow()).password_hash as string

  it('makes a token of 32 random bytes for a known email, stores its SHA-256 only, and nothing for an unknown one', async () => {
    expect(await requestPasswordReset(request(), 'nobody@example.com')).toBeUndefined()
    expect(await rows()).toEqual([])

    const link = await requestPasswordReset(request(), 'ada@example.com')
    expect(link).toEqual({ user: { id: 1, name: 'Ada', email: 'ada@example.com' }, token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) })
    const stored = await rows()
    expect(stored).toEqual([{ user_id: 1, token_hash: createHash('sha256').update(link!.token).digest('hex'), created_at: expect.any(Date) }])
    expect(await passwordResetUser('ada@example.com', link!.token)).toEqual({ id: 1, name: 'Ada', email: 'ada@example.com' })
    expect(await passwordResetUser('ADA@example.com ', link!.token)).toMatchObject({ id: 1 })
    expect(await passwordResetUser('ada@example.com', link!.token.slice(0, -1) + 'x')).toBeUndefined()
    expect(await passwordResetUser('grace@example.com', link!.token)).toBeUndefined()
  })

  it('resets the password once, revokes every token and session, and signs no one in', async () => {
    const api = await issueToken(1, 'api')
    const session = await issueToken(1, 'session')
    const link = (await requestPasswordReset(request(), 'ada@example.com'))!

    // A refused password leaves the link usable.
    await expect(resetPassword({ email: 'ada@example.com', token: link.token, password: 'password' })).rejects.toThrow(ValidationError)
    expect(await rows()).toHaveLength(1)

    expect(await resetPassword({ email: 'ada@example.com', token: link.token, password: NEW })).toEqual({ id: 1, name: 'Ada', email: 'ada@example.com' })
    expect(await verifyPassword(NEW, await passwordHash())).toBe(true)
    expect(await tokenUser(api.token, 'api')).toBeUndefined()
    expect(await tokenUser(session.token, 'session')).toBeUndefined()
    expect(await db.selectFrom('access_tokens').selectAll().execute()).toEqual([])
    expect(await rows()).toEqual([])

    // Used up: a second use changes nothing.
    const hash = await passwordHash()
    expect(await passwordResetUser('ada@example.com', link.token)).toBeUndefined()
    expect(await resetPassword({ email: 'ada@example.com', token: link.token, password: 'yet another passphrase' })).toBeUndefined()
    expect(await passwordHash()).toBe(hash)
  })

  it('lets one of two resets with the same link at the same moment through', async () => {
    const link = (await requestPasswordReset(request(), 'ada@example.com'))!
    const results = await Promise.all(['first new passphrase', 'second new passphrase'].map((password) => resetPassword({ email: 'ada@example.com', token: link.token, password })))
    expect(results.filter((user) => user !== undefined)).toHaveLength(1)
  })

  it('expires a link after 60 minutes', async () => {
    const link = (await requestPasswordReset(request(), 'ada@example.com'))!
    const age = (ms: number) => db.updateTable('password_reset_tokens').set({ created_at: new Date(Date.now() - ms).toISOString() }).execute()

    await age(RESET_TOKEN_LIFETIME - 60_000)
    expect(await passwordResetUser('ada@example.com', link.token)).toMatchObject({ id: 1 })
    await age(RESET_TOKEN_LIFETIME + 1000)
    expect(await passwordResetUser('ada@example.com', link.token)).toBeUndefined()
    expect(await resetPassword({ email: 'ada@example.com', token: link.token, password: NEW })).toBeUndefined()
    expect(await verifyPassword(OLD, await passwordHash())).toBe(true)
    expect((await pruneAuthTables()).passwordResets).toBe(1)
    expect(await rows()).toEqual([])
  })

  it('replaces a token with a newer one, and voids a pending one on any password change', async () => {
    const older = (await requestPasswordReset(request(), 'ada@example.com'))!
    const newer = (await requestPasswordReset(request(), 'ada@example.com'))!
    expect(await rows()).toHaveLength(1)
    expect(await passwordResetUser('ada@example.com', older.token)).toBeUndefined()
    expect(await passwordResetUser('ada@example.com', newer.token)).toMatchObject({ id: 1 })

    await changePassword(1, NEW)
    expect(await passwordResetUser('ada@example.com', newer.token)).toBeUndefined()
    expect(await rows()).toEqual([])
  })

  it('leaves an app made before reset links working: no password_reset_tokens table, password changes and pruning as before', async () => {
    await db.schema.dropTable('password_reset_tokens').execute()
    await changePassword(1, NEW)
    expect(await verifyPassword(NEW, await passwordHash())).toBe(true)
    expect(await pruneAuthTables()).toEqual({ tokens: 0, passwordResets: 0, loginAttempts: 0 })
  })

  it('throttles requests per email (3 in 15 minutes, from any address) and per address (10 a minute), known or not', async () => {
    for (const email of ['ada@example.com', 'nobody@example.com']) {
      for (let attempt = 0; attempt < 3; attempt++) await requestPasswordReset(request(), email)
      const refused = await requestPasswordReset(request(), email).catch((error: unknown) => error)
      expect(refused).toBeInstanceOf(HttpError)
      expect((refused as HttpError).status).toBe(429)
      expect((refused as HttpError).message).toMatch(/^Too many password reset requests\. Try again in \d+ seconds\.$/)
      expect(Number((refused as HttpError).headers['Retry-After'])).toBeGreaterThan(14 * 60)
    }

    const one = from('198.51.100.7')
    for (let attempt = 0; attempt < 10; attempt++) await requestPasswordReset(one, `someone${attempt}@example.com`)
    const refused = await requestPasswordReset(one, 'someone-else@example.com').catch((error: unknown) => error)
    expect([(refused as HttpError).status, Number((refused as HttpError).headers['Retry-After'])]).toEqual([429, expect.any(Number)])
    expect(Number((refused as HttpError).headers['Retry-After'])).toBeLessThanOrEqual(60)
    // The sign-in throttle's counts are not these.
    const keys = (await db.selectFrom('login_attempts').select('key').execute()).map((row) => row.key as string)
    expect(keys.every((key) => /^[0-9a-f]{64}$/.test(key))).toBe(true)
  })
})
