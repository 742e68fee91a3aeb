import { beforeAll, describe, expect, it } from 'vitest'
import type { TestClient } from 'fw-runtime/testing'
import { apiKey, createClient, json } from './app.js'

let client: TestClient
beforeAll(async () => {
  client = await createClient()
})

function createUser(body: unknown, key?: string) {
  return client.fetch('/api/users', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(key === undefined ? {} : { 'X-API-Key': key }) },
    body: JSON.stringify(body),
  })
}

describe('Api\\UserController: POST /api/users', () => {
  it('creates a user with a valid key: 201, the user, X-API-Version and X-Request-ID', async () => {
    const response = await createUser({ name: 'Ada', email: 'ada@example.com' }, apiKey)
    expect(response.status).toBe(201)
    expect(response.headers.get('x-api-version')).toBeTruthy()
    expect(response.headers.get('x-request-id')).toBeTruthy()
    const body = await json<{ success: boolean; user: { id: number; created_at: string } }>(response)
    expect(body).toEqual({
      success: true,
      user: { id: expect.any(Number), name: 'Ada', email: 'ada@example.com', created_at: expect.any(String) },
    })
    expect(Number.isInteger(body.user.id)).toBe(true)
    expect(body.user.created_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
  })

  it('400 when name or email is missing, before anything else', async () => {
    const response = await createUser({ name: 'Ada' })
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ error: expect.any(String) })
  })

  it('422 for an invalid e-mail, before the key is checked', async () => {
    const response = await createUser({ name: 'Ada', email: 'not-an-email' })
    expect(response.status).toBe(422)
    expect(await response.json()).toEqual({ error: expect.any(String) })
  })

  it('401 Unauthorized without the key or with a wrong one', async () => {
    for (const key of [undefined, `${apiKey}x`]) {
      const response = await createUser({ name: 'Ada', email: 'ada@example.com' }, key)
      expect(response.status).toBe(401)
      expect(await response.json()).toEqual({ error: 'Unauthorized' })
    }
  })
})
