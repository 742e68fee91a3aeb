import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Container } from '../../src/container/Container.js'
import { Response } from '../../src/http/Response.js'
import { secureHeaders } from '../../src/middleware/secureHeaders.js'
import { Router } from '../../src/routing/Router.js'
import { transports, type OpenApp } from '../support/servers.js'

describe.each(transports)('secureHeaders on $name', ({ open: openApp }) => {
  let server: OpenApp

  beforeAll(async () => {
    const router = new Router(new Container())
    router.use(secureHeaders())
    router.get('/page', () => Response.html('<h1>Hi</h1>'))
    router.get('/embeddable', () => Response.html('<p>widget</p>').setHeader('X-Frame-Options', 'SAMEORIGIN'))
    router.get('/api', () => Response.json({ ok: true }))
    server = await openApp(router)
  })
  afterAll(() => server.close())

  it('protects HTML pages from framing, sniffing and referrer leaks; HSTS only over https', async () => {
    const page = await server.fetch('/page')
    expect({
      nosniff: page.headers.get('x-content-type-options'),
      csp: page.headers.get('content-security-policy'),
      frame: page.headers.get('x-frame-options'),
      referrer: page.headers.get('referrer-policy'),
      hsts: page.headers.get('strict-transport-security'),
    }).toEqual({ nosniff: 'nosniff', csp: "frame-ancestors 'none'", frame: 'DENY', referrer: 'strict-origin-when-cross-origin', hsts: null })
    const secure = await server.fetch('/page', { headers: { 'X-Forwarded-Proto': 'https' } })
    expect(secure.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains')
  })

  it("keeps a header the handler set, and gives JSON only nosniff", async () => {
    expect((await server.fetch('/embeddable')).headers.get('x-frame-options')).toBe('SAMEORIGIN')
    const api = await server.fetch('/api')
    expect([api.headers.get('x-content-type-options'), api.headers.get('x-frame-options')]).toEqual(['nosniff', null])
  })
})

describe.each(transports)('the router gives every HTML response the secure headers by default, on $name', ({ open }) => {
  const routes = (router: Router) => {
    router.get('/page', () => Response.html('<h1>Hi</h1>'))
    router.get('/embeddable', () => Response.html('<p>widget</p>').setHeader('X-Frame-Options', 'SAMEORIGIN'))
    router.get('/slow-page', async () => Response.html('<p>later</p>'))
    router.get('/api', () => Response.json({ ok: true }))
    return router
  }
  const framing = (response: globalThis.Response) => ({
    nosniff: response.headers.get('x-content-type-options'),
    csp: response.headers.get('content-security-policy'),
    frame: response.headers.get('x-frame-options'),
    referrer: response.headers.get('referrer-policy'),
  })
  const protectedPage = { nosniff: 'nosniff', csp: "frame-ancestors 'none'", frame: 'DENY', referrer: 'strict-origin-when-cross-origin' }
  const bare = { nosniff: null, csp: null, frame: null, referrer: null }
  let app: OpenApp
  let relaxed: OpenApp
  let off: OpenApp

  beforeAll(async () => {
    app = await open(routes(new Router(new Container())))
    relaxed = await open(routes(new Router(new Container()).secureHeaders({ frameAncestors: 'self', hsts: false })))
    off = await open(routes(new Router(new Container()).secureHeaders(false)))
  })
  afterAll(async () => {
    await Promise.all([app.close(), relaxed.close(), off.close()])
  })

  it('on pages answered at once or later, and on HTML error pages, with no middleware set up', async () => {
    expect(framing(await app.fetch('/page'))).toEqual(protectedPage)
    expect(framing(await app.fetch('/slow-page'))).toEqual(protectedPage)
    const missing = await app.fetch('/nowhere', { headers: { Accept: 'text/html' } })
    expect([missing.status, framing(missing)]).toEqual([404, protectedPage])
    const secure = await app.fetch('/page', { headers: { 'X-Forwarded-Proto': 'https' } })
    expect(secure.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains')
  })

  it('leaves JSON alone and keeps a header the handler set', async () => {
    expect(framing(await app.fetch('/api'))).toEqual(bare)
    expect(framing(await app.fetch('/nowhere'))).toEqual(bare)
    expect((await app.fetch('/embeddable')).headers.get('x-frame-options')).toBe('SAMEORIGIN')
  })

  it('takes the options of router.secureHeaders, and none at all with false', async () => {
    const page = await relaxed.fetch('/page', { headers: { 'X-Forwarded-Proto': 'https' } })
    expect([framing(page).csp, framing(page).frame, page.headers.get('strict-transport-security')]).toEqual(["frame-ancestors 'self'", 'SAMEORIGIN', null])
    expect(framing(await off.fetch('/page'))).toEqual(bare)
  })
})

describe('secureHeaders options', () => {
  it('are checked once, when the headers are made: a value with a line break throws there, naming its header', () => {
    expect(() => secureHeaders({ referrerPolicy: 'no-referrer\r\nSet-Cookie: a=b' })).toThrow('Header "Referrer-Policy" must not contain CR or LF characters')
    expect(() => new Router(new Container()).secureHeaders({ hsts: 'max-age=1\n' })).toThrow('Header "Strict-Transport-Security" must not contain CR or LF characters')
  })
})
