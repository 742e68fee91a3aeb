import { beforeAll, describe, expect, it } from 'vitest'
import runtime from 'fw-runtime/package.json' with { type: 'json' }
import type { TestClient } from 'fw-runtime/testing'
import { createClient } from './app.js'

let client: TestClient
beforeAll(async () => {
  client = await createClient()
})

describe('HomeController', () => {
  it('GET / says the framework is running', async () => {
    const response = await client.get('/')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('application/json')
    const body = await response.json()
    expect(body).toEqual({ name: `Fw ${runtime.version}`, status: 'running', message: expect.any(String) })
  })
})

describe('GET /openapi.json', () => {
  it('documents GET / with the JSON it answers', async () => {
    const response = await client.get('/openapi.json')
    expect(response.status).toBe(200)
    const document = (await response.json()) as { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>> }
    expect(document.paths['/']!.get!.responses['200']!.content!['application/json']!.schema).toMatchObject({
      type: 'object',
      properties: { name: { type: 'string' }, status: { type: 'string' }, message: { type: 'string' } },
    })
  })
})
