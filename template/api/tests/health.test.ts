import { beforeAll, describe, expect, it } from 'vitest'
import type { TestClient } from 'fw-runtime/testing'
import { createClient, json } from './app.js'
import { startServer } from './server.js'

let client: TestClient
beforeAll(async () => {
  client = await createClient()
})

describe('HealthController and DownloadController', () => {
  it('GET /health: healthy with the database up, an integer Unix timestamp, never cached', async () => {
    const before = Math.floor(Date.now() / 1000)
    const response = await client.get('/health')
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-cache')
    const body = await json<{ status: unknown; timestamp: number }>(response)
    expect(body.status).toEqual(expect.any(String))
    expect(body).toMatchObject({ status: 'healthy', database: 'up' })
    expect(Number.isInteger(body.timestamp)).toBe(true)
    expect(body.timestamp).toBeGreaterThanOrEqual(before)
  })

  it('GET /health: 503 and unhealthy when the database does not answer, with no internal detail', async () => {
    // Port 1 of 127.0.0.1: nothing listens there, so PostgreSQL's connection is refused at once.
    const down = await startServer({ DATABASE_URL: 'postgres://fw:secret@127.0.0.1:1/app' })
    try {
      const response = await fetch(`${down.url}/health`)
      expect(response.status).toBe(503)
      expect(response.headers.get('cache-control')).toBe('no-cache')
      const body = await json<Record<string, unknown>>(response)
      expect(Object.keys(body).sort()).toEqual(['database', 'status', 'timestamp'])
      expect(body).toMatchObject({ status: 'unhealthy', database: 'down' })
    } finally {
      await down.stop()
    }
  })

  it('GET /download: plain text as an attachment with a file name', async () => {
    const response = await client.get('/download')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('text/plain')
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename=".+"/)
    expect((await response.text()).length).toBeGreaterThan(0)
  })
})
