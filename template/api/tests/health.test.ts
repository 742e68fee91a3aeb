import { beforeAll, describe, expect, it } from 'vitest'
import type { TestClient } from 'fw-runtime/testing'
import { createClient, json } from './app.js'

let client: TestClient
beforeAll(async () => {
  client = await createClient()
})

describe('HealthController and DownloadController', () => {
  it('GET /health: status, an integer Unix timestamp, never cached', async () => {
    const before = Math.floor(Date.now() / 1000)
    const response = await client.get('/health')
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-cache')
    const body = await json<{ status: unknown; timestamp: number }>(response)
    expect(body.status).toEqual(expect.any(String))
    expect(Number.isInteger(body.timestamp)).toBe(true)
    expect(body.timestamp).toBeGreaterThanOrEqual(before)
  })

  it('GET /download: plain text as an attachment with a file name', async () => {
    const response = await client.get('/download')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('text/plain')
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename=".+"/)
    expect((await response.text()).length).toBeGreaterThan(0)
  })
})
