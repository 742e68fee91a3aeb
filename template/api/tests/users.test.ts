import { beforeAll, describe, expect, it } from 'vitest'
import type { TestClient } from 'fw-runtime/testing'
import { createClient, json } from './app.js'

let client: TestClient
beforeAll(async () => {
  client = await createClient()
})

function send(method: string, path: string, body?: unknown) {
  return client.fetch(path, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
}

describe('UserController', () => {
  it('GET /users lists users', async () => {
    const response = await send('GET', '/users')
    expect(response.status).toBe(200)
    const body = await json<{ users: unknown[] }>(response)
    expect(Array.isArray(body.users)).toBe(true)
    expect(body.users[0]).toEqual({ id: 1, name: expect.any(String) })
  })

  it('GET /users/{id} shows one user, and a non-numeric id is a 400', async () => {
    const response = await send('GET', '/users/7')
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ user: { id: 7, name: 'User 7' } })

    const invalid = await send('GET', '/users/abc')
    expect(invalid.status).toBe(400)
    expect(await invalid.json()).toEqual({ error: 'Invalid user ID' })
  })

  it('POST /users echoes the input with 201', async () => {
    const response = await send('POST', '/users', { name: 'Ada', email: 'ada@example.com' })
    expect(response.status).toBe(201)
    expect(await response.json()).toEqual({ message: 'User created', user: { name: 'Ada', email: 'ada@example.com' } })
  })

  it('PUT /users/{id} answers with the id', async () => {
    const response = await send('PUT', '/users/5', { name: 'Grace' })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ updated: '5' })
  })

  it('DELETE /users/{id} answers with the id', async () => {
    const response = await send('DELETE', '/users/5')
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ deleted: '5' })
  })
})
