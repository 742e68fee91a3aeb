import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Container } from '../../src/container/Container.js'
import { Response } from '../../src/http/Response.js'
import { secureHeaders } from '../../src/middleware/secureHeaders.js'
import { Router } from '../../src/routing/Router.js'
import type { RunningServer } from '../../src/server/listen.js'
import { listenOn, servers } from '../support/servers.js'

describe.each(servers)('secureHeaders on $name', ({ start }) => {
  let server: RunningServer

  beforeAll(async () => {
    const router = new Router(new Container())
    router.use(secureHeaders())
    router.get('/page', () => Response.html('<h1>Hi</h1>'))
    router.get('/embeddable', () => Response.html('<p>widget</p>').setHeader('X-Frame-Options', 'SAMEORIGIN'))
    router.get('/api', () => Response.json({ ok: true }))
    server = await listenOn(start, router)
  })
  afterAll(() => server.close())

  it('protects HTML pages from framing, sniffing and referrer leaks; HSTS only over https', async () => {
    const page = await fetch(`${server.url}/page`)
    expect({
      nosniff: page.headers.get('x-content-type-options'),
      csp: page.headers.get('content-security-policy'),
      frame: page.headers.get('x-frame-options'),
      referrer: page.headers.get('referrer-policy'),
      hsts: page.headers.get('strict-transport-security'),
    }).toEqual({ nosniff: 'nosniff', csp: "frame-ancestors 'none'", frame: 'DENY', referrer: 'strict-origin-when-cross-origin', hsts: null })
    const secure = await fetch(`${server.url}/page`, { headers: { 'X-Forwarded-Proto': 'https' } })
    expect(secure.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains')
  })

  it("keeps a header the handler set, and gives JSON only nosniff", async () => {
    expect((await fetch(`${server.url}/embeddable`)).headers.get('x-frame-options')).toBe('SAMEORIGIN')
    const api = await fetch(`${server.url}/api`)
    expect([api.headers.get('x-content-type-options'), api.headers.get('x-frame-options')]).toEqual(['nosniff', null])
  })
})
