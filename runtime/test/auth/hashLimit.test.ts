// Finding 12's second half: a flood of junk sign-ins from many emails is not allowed to pile up password
// hashes. With 2 hashes at once and 4 waiting, the rest are answered 503 at once, and a real user can sign in
// right after. The limits are read at the process's first hash, so this file (a process of its own) sets them.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Container } from '../../src/container/Container.js'
import { createDatabase } from '../../src/database/createDatabase.js'
import type { RunningServer } from '../../src/server/listen.js'
import { listenOn, servers } from '../support/servers.js'
import { authRouter, createAuthTables } from './authApp.js'

process.env.AUTH_HASH_CONCURRENCY = '2'
process.env.AUTH_HASH_QUEUE = '4'
process.env.AUTH_IP_ATTEMPTS = '1000'
process.env.APP_KEY = 'base64:' + Buffer.alloc(32, 5).toString('base64')

const folder = mkdtempSync(join(tmpdir(), 'fw-hash-limit-'))
afterAll(() => {
  for (const name of ['AUTH_HASH_CONCURRENCY', 'AUTH_HASH_QUEUE', 'AUTH_IP_ATTEMPTS']) delete process.env[name]
  rmSync(folder, { recursive: true, force: true })
})

describe.each(servers)('concurrent password hashes over $name', ({ start }) => {
  let server: RunningServer
  const database = createDatabase(`sqlite:${join(folder, `${start.name}.sqlite`)}`)
  beforeAll(async () => {
    await createAuthTables(database)
    Container.setInstance(new Container().instance('db', database))
    server = await listenOn(start, authRouter())
  })
  afterAll(async () => {
    await server.close()
    Container.setInstance(undefined)
    await database.destroy()
  })

  const login = (email: string, password: string) =>
    fetch(`${server.url}/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password }) })

  it('answers 503 with Retry-After past the queue instead of piling hashes up, and a real sign-in still works', async () => {
    const registered = await fetch(`${server.url}/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Ada', email: 'ada@example.com', password: 'correct horse battery staple' }),
    })
    expect(registered.status).toBe(201)

    const junk = await Promise.all(Array.from({ length: 32 }, (_, i) => login(`junk${i}@example.com`, 'wrong password')))
    const statuses = junk.map((response) => response.status)
    expect(statuses.every((status) => status === 422 || status === 503)).toBe(true)
    // At most 2 running and 4 waiting when the flood arrives: most of the 32 are turned away at once.
    expect(statuses.filter((status) => status === 503).length).toBeGreaterThanOrEqual(16)
    const busy = junk.find((response) => response.status === 503)!
    expect([busy.headers.get('retry-after'), await busy.json()]).toEqual(['1', { error: 'The server is busy; try again in a moment.' }])

    expect((await login('ada@example.com', 'correct horse battery staple')).status).toBe(200)
  })
})
