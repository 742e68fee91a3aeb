import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type TestServer } from './server.js'

let server: TestServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.stop())

// The other tests request the app in process; this one starts the real server, as `npm run dev` does.
describe('the server (public/index.ts)', () => {
  it('listens and answers over HTTP', async () => {
    const response = await fetch(`${server.url}/`)
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual(expect.objectContaining({ status: 'running' }))
  })
})
