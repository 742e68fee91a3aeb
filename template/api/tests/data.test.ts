import { beforeAll, describe, expect, it } from 'vitest'
import type { TestClient } from 'fw-runtime/testing'
import { createClient } from './app.js'

let client: TestClient
beforeAll(async () => {
  client = await createClient()
})

describe('DataController: GET /api/data', () => {
  it('JSON by default and with format=json', async () => {
    for (const query of ['', '?format=json']) {
      const response = await client.get(`/api/data${query}`)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toContain('application/json')
      await response.json()
    }
  })

  it('format=text and format=html', async () => {
    const text = await client.get('/api/data?format=text')
    expect(text.status).toBe(200)
    expect(text.headers.get('content-type')).toContain('text/plain')

    const html = await client.get('/api/data?format=html')
    expect(html.status).toBe(200)
    expect(html.headers.get('content-type')).toContain('text/html')
  })

  it('any other format is 400 Invalid format', async () => {
    const response = await client.get('/api/data?format=xml')
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ error: 'Invalid format' })
  })
})
