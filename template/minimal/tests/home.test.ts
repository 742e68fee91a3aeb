import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import runtime from 'fw-runtime/package.json' with { type: 'json' }
import { startServer, type TestServer } from './server.js'

let server: TestServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.stop())

describe('HomeController', () => {
  it('GET / says the framework is running', async () => {
    const response = await fetch(`${server.url}/`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('application/json')
    const body = await response.json()
    expect(body).toEqual({ name: `Fw ${runtime.version}`, status: 'running', message: expect.any(String) })
  })
})
