import type { Kysely } from 'kysely'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { Container } from '../../src/container/Container.js'
import { testClient } from '../../src/testing/TestClient.js'
import { authRouter, createAuthTables } from '../auth/authApp.js'
import { teamBackends } from '../support/teamDatabase.js'

process.env.APP_KEY = `base64:${Buffer.alloc(32, 7).toString('base64')}`
const ADA = { id: 1, name: 'Ada', email: 'ada@example.com' }

describe.each(teamBackends)('client.actingAs(user) on $name', (backend) => {
  let db: Kysely<any>
  let stop = async () => {}
  beforeAll(async () => {
    const opened = await backend.open()
    db = opened.db
    stop = async () => {
      await opened.db.destroy()
      await opened.stop()
    }
    Container.setInstance(new Container().instance('db', db))
  }, 60_000)
  afterAll(async () => {
    Container.setInstance(undefined)
    await stop()
  })
  beforeEach(async () => {
    await createAuthTables(db)
    // No password anyone could type: actingAs never asks for one.
    await db.insertInto('users').values({ name: 'Ada', email: 'ada@example.com', password_hash: 'not a hash' }).execute()
  })

  it('signs a browser in through its session cookie, for JSON routes and pages alike', async () => {
    const client = testClient(authRouter())
    expect((await client.get('/me', { headers: { Accept: 'application/json' } })).status).toBe(401)

    const me = await client.actingAs(ADA).get('/me', { headers: { Accept: 'application/json' } })
    expect(me.status).toBe(200)
    const { user, csrf } = await me.json()
    expect(user).toEqual(ADA)
    expect(client.cookies.has('fw_session')).toBe(true)
    // A page for guests sends a signed-in browser home.
    const login = await client.get('/login', { headers: { Accept: 'text/html' } })
    expect([login.status, login.headers.get('location')]).toEqual([302, '/me'])

    // The session is a real one: signing out revokes it.
    expect((await client.post('/logout', {}, { headers: { 'X-CSRF-TOKEN': csrf } })).status).toBe(200)
    expect((await client.get('/me', { headers: { Accept: 'application/json' } })).status).toBe(401)
  })

  it('signs an API client in with a bearer token, for what reads the token itself', async () => {
    const client = testClient(authRouter()).actingAs(ADA, 'token')
    const me = await client.get('/me')
    expect(await me.json()).toEqual({ user: ADA, csrf: null })
    expect(await db.selectFrom('access_tokens').select(['user_id', 'kind']).execute()).toEqual([{ user_id: 1, kind: 'api' }])

    expect((await client.post('/logout')).status).toBe(200)
    expect(await db.selectFrom('access_tokens').selectAll().execute()).toEqual([])
    expect((await client.get('/me')).status).toBe(401)
  })

  it('lets a request’s own Authorization header win', async () => {
    const client = testClient(authRouter()).actingAs(ADA, 'token')
    expect((await client.get('/me', { headers: { Authorization: 'Bearer not-a-token' } })).status).toBe(401)
  })

  it('refuses a user without a numeric id at the call', () => {
    expect(() => testClient(authRouter()).actingAs({ id: 'ada' })).toThrow("actingAs(user) signs in a user of the users table by its numeric id; this one's id is ada")
  })

  it('says which user could not be signed in', async () => {
    const client = testClient(authRouter()).actingAs({ id: 99 })
    await expect(client.get('/me')).rejects.toThrow(/^actingAs could not sign in user 99: /)
  })
})
