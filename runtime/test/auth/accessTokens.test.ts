import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Kysely } from 'kysely'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { issueToken, tokenUser } from '../../src/auth/accessTokens.js'
import { Container } from '../../src/container/Container.js'
import { createDatabase } from '../../src/database/createDatabase.js'
import { startPostgres, type TestPostgres } from '../support/postgres.js'
import { createAuthTables } from './authApp.js'

let postgres: TestPostgres
let folder: string
beforeAll(async () => {
  postgres = await startPostgres()
  folder = mkdtempSync(join(tmpdir(), 'fw-tokens-'))
}, 60_000)
afterAll(() => {
  postgres?.stop()
  if (folder) rmSync(folder, { recursive: true, force: true })
})

const MINUTE = 60_000

describe.each([
  { name: 'SQLite', open: () => createDatabase<any>('sqlite:tokens.sqlite', folder) },
  { name: 'PostgreSQL', open: () => createDatabase<any>(postgres.url) },
])('access tokens on $name', ({ open }) => {
  let db: Kysely<any>
  beforeEach(async () => {
    db = open()
    Container.setInstance(new Container().instance('db', db))
    await createAuthTables(db)
    await db.insertInto('users').values({ name: 'Ada', email: 'ada@example.com', password_hash: 'x' }).execute()
    return async () => {
      Container.setInstance(undefined)
      await db.destroy()
    }
  })

  /** A token row as an app stored it before (expires_at and last_used_at as ISO 8601 text). */
  const storeToken = async (token: string, expiresAt: Date, lastUsedAt: Date | null = null) =>
    db
      .insertInto('access_tokens')
      .values({
        user_id: 1,
        token_hash: createHash('sha256').update(token).digest('hex'),
        kind: 'api',
        expires_at: expiresAt.toISOString(),
        last_used_at: lastUsedAt?.toISOString() ?? null,
      })
      .execute()

  it('signs in with a new token, reads its times as Dates and records its use', async () => {
    const { token, expiresAt } = await issueToken(1, 'api')
    expect(expiresAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    expect(await tokenUser(token, 'api')).toEqual({ id: 1, name: 'Ada', email: 'ada@example.com' })
    expect(await tokenUser(token, 'session')).toBeUndefined()
    const row = await db.selectFrom('access_tokens').select(['expires_at', 'last_used_at']).executeTakeFirstOrThrow()
    expect(row.expires_at).toEqual(new Date(expiresAt))
    expect(row.last_used_at).toBeInstanceOf(Date)
  })

  it('compares expiry to the millisecond with rows stored before, even within the same minute', async () => {
    const now = Date.now()
    await storeToken('expired', new Date(now - 1000))
    await storeToken('valid', new Date(now + MINUTE))
    expect(await tokenUser('expired', 'api')).toBeUndefined()
    expect(await tokenUser('valid', 'api')).toMatchObject({ id: 1 })
    // A new token clears the user's expired ones, and only those.
    await issueToken(1, 'api')
    expect(await db.selectFrom('access_tokens').select('id').execute()).toHaveLength(2)
  })

  it('records the last use at most once a minute', async () => {
    const now = Date.now()
    const recent = new Date(now - 30_000)
    const old = new Date(now - 2 * MINUTE)
    await storeToken('recent', new Date(now + MINUTE), recent)
    await storeToken('old', new Date(now + MINUTE), old)
    await tokenUser('recent', 'api')
    await tokenUser('old', 'api')
    const rows = await db.selectFrom('access_tokens').select('last_used_at').orderBy('id').execute()
    expect(rows[0]!.last_used_at).toEqual(recent)
    expect(rows[1]!.last_used_at.getTime()).toBeGreaterThanOrEqual(now)
  })
})
