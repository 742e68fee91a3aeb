import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { Container } from '../../src/container/Container.js'
import { Response } from '../../src/http/Response.js'
import { Router } from '../../src/routing/Router.js'
import type { RunningServer } from '../../src/server/listen.js'
import { startSession } from '../../src/session/startSession.js'
import { verifyCsrfToken } from '../../src/session/verifyCsrfToken.js'
import { listenOn, servers } from '../support/servers.js'

const KEY = 'base64:' + Buffer.alloc(32, 7).toString('base64')
const OTHER_KEY = 'base64:' + Buffer.alloc(32, 9).toString('base64')

/** A browser's cookie jar for one site, enough for these tests. */
class Browser {
  cookies = new Map<string, string>()
  constructor(private readonly base: string) {}

  async send(method: string, path: string, init: { headers?: Record<string, string>; body?: string } = {}) {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
    const response = await fetch(this.base + path, {
      method,
      headers: { ...(cookie ? { Cookie: cookie } : {}), ...init.headers },
      body: init.body,
      redirect: 'manual',
    })
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';')
      const at = pair!.indexOf('=')
      const name = pair!.slice(0, at)
      const value = pair!.slice(at + 1)
      if (value === '' || /Max-Age=0/.test(line)) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    return { status: response.status, text: await response.text(), setCookie: response.headers.getSetCookie() }
  }
}

function buildRouter(): Router {
  const router = new Router(new Container())
  router.aliasMiddleware('session', startSession())
  router.aliasMiddleware('csrf', verifyCsrfToken({ trustedOrigins: ['https://admin.example.test'] }))
  router.post('/put', (request) => {
    request.session.put(String(request.input('key')), request.input('value'))
    return Response.json({ id: request.session.id() })
  }).middleware('session')
  router.get('/get/{key}', (request, key) => Response.json({ value: request.session.get(key ?? '', null), id: request.session.id() })).middleware('session')
  router.post('/flash', (request) => {
    request.session.flash('status', 'Saved!')
    return Response.json({})
  }).middleware('session')
  router.post('/regenerate', (request) => {
    request.session.regenerate()
    return Response.json({ id: request.session.id() })
  }).middleware('session')
  router.post('/invalidate', (request) => {
    request.session.invalidate()
    return Response.json({})
  }).middleware('session')
  router.get('/form', (request) => Response.json({ token: request.csrfToken() })).middleware('session')
  router.post('/form', (request) => Response.json({ saved: request.input('name') ?? null })).middleware('session', 'csrf')
  router.post('/no-session', () => Response.json({})).middleware('csrf')
  return router
}

beforeEach(() => {
  process.env.APP_KEY = KEY
  delete process.env.APP_PREVIOUS_KEYS
})

describe.each(servers)('sessions and CSRF on $name', ({ start }) => {
  let server: RunningServer
  let browser: Browser

  beforeAll(async () => {
    process.env.APP_KEY = KEY
    server = await listenOn(start, buildRouter())
  })
  afterAll(() => server.close())
  beforeEach(() => {
    browser = new Browser(server.url)
  })

  const json = { 'Content-Type': 'application/json' }
  const put = (key: string, value: unknown) => browser.send('POST', '/put', { headers: json, body: JSON.stringify({ key, value }) })
  const get = async (key: string) => JSON.parse((await browser.send('GET', `/get/${key}`)).text) as { value: unknown; id: string }

  it('keeps values between requests in an encrypted HttpOnly, SameSite=Lax cookie', async () => {
    const first = await put('cart', [1, 2])
    expect(first.setCookie).toHaveLength(1)
    expect(first.setCookie[0]).toMatch(/^fw_session=v1\.[A-Za-z0-9_-]+; Path=\/; Max-Age=7200; HttpOnly; SameSite=Lax$/)
    expect(first.setCookie[0]).not.toContain('cart')
    expect((await get('cart')).value).toEqual([1, 2])
  })

  it('marks the cookie Secure over https', async () => {
    const answer = await browser.send('POST', '/put', { headers: { ...json, 'X-Forwarded-Proto': 'https' }, body: '{"key":"a","value":1}' })
    expect(answer.setCookie[0]).toMatch(/; Secure; SameSite=Lax$/)
  })

  it('sets no cookie while the session holds nothing', async () => {
    expect((await browser.send('GET', '/get/x')).setCookie).toEqual([])
  })

  it('keeps a flashed value for the next request only', async () => {
    await browser.send('POST', '/flash')
    expect((await get('status')).value).toBe('Saved!')
    expect((await get('status')).value).toBe(null)
  })

  it('reads a tampered, foreign or garbage cookie as an empty session, never an error', async () => {
    await put('user', 1)
    const sealed = browser.cookies.get('fw_session')!
    const flipped = sealed.slice(0, -2) + (sealed.at(-2) === 'A' ? 'B' : 'A') + sealed.at(-1)
    for (const value of [flipped, 'v1.AAAA', 'garbage', '']) {
      browser.cookies.set('fw_session', value)
      const answer = await browser.send('GET', '/get/user')
      expect([answer.status, JSON.parse(answer.text).value]).toEqual([200, null])
    }
  })

  it('opens a cookie sealed with a key listed in APP_PREVIOUS_KEYS, not with an unknown key', async () => {
    process.env.APP_KEY = OTHER_KEY
    const other = await listenOn(start, buildRouter())
    try {
      const old = new Browser(other.url)
      await old.send('POST', '/put', { headers: json, body: '{"key":"user","value":42}' })
      browser.cookies = new Map(old.cookies)
      expect((await get('user')).value).toBe(null)
      process.env.APP_PREVIOUS_KEYS = OTHER_KEY
      const rotated = await listenOn(start, buildRouter())
      try {
        process.env.APP_KEY = KEY
        const again = new Browser(rotated.url)
        again.cookies = new Map(old.cookies)
        expect(JSON.parse((await again.send('GET', '/get/user')).text).value).toBe(42)
      } finally {
        await rotated.close()
      }
    } finally {
      await other.close()
    }
  })

  it('is shared by every process with the same APP_KEY: no server-side state', async () => {
    const second = await listenOn(start, buildRouter())
    try {
      await put('theme', 'dark')
      const elsewhere = new Browser(second.url)
      elsewhere.cookies = new Map(browser.cookies)
      expect(JSON.parse((await elsewhere.send('GET', '/get/theme')).text).value).toBe('dark')
    } finally {
      await second.close()
    }
  })

  it('regenerate gives a new id and keeps the values; invalidate empties it and clears the cookie', async () => {
    const { id } = JSON.parse((await put('user', 7)).text) as { id: string }
    const regenerated = JSON.parse((await browser.send('POST', '/regenerate')).text) as { id: string }
    expect(regenerated.id).not.toBe(id)
    expect(await get('user')).toEqual({ value: 7, id: regenerated.id })
    const cleared = await browser.send('POST', '/invalidate')
    expect(cleared.setCookie[0]).toMatch(/^fw_session=; .*Max-Age=0/)
    expect((await get('user')).value).toBe(null)
  })

  describe('csrf', () => {
    async function token(): Promise<string> {
      return (JSON.parse((await browser.send('GET', '/form')).text) as { token: string }).token
    }

    it('accepts the token from a form field or the X-CSRF-Token header', async () => {
      const value = await token()
      const form = await browser.send('POST', '/form', {
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _token: value, name: 'Ada' }).toString(),
      })
      expect([form.status, form.text]).toEqual([200, '{"saved":"Ada"}'])
      const header = await browser.send('POST', '/form', { headers: { ...json, 'X-CSRF-Token': value }, body: '{"name":"Grace"}' })
      expect([header.status, header.text]).toEqual([200, '{"saved":"Grace"}'])
    })

    it.each([
      ['no token', { 'Content-Type': 'application/json' }, '{"name":"x"}'],
      ['a wrong token', { 'Content-Type': 'application/json', 'X-CSRF-Token': 'wrong' }, '{"name":"x"}'],
      ['a text/plain;json body', { 'Content-Type': 'text/plain;json' }, '{"name":"x"}'],
      ['a form body typed …;json', { 'Content-Type': 'application/x-www-form-urlencoded;json' }, 'name=x'],
    ])('answers 419 to %s', async (_, headers, body) => {
      await token()
      const answer = await browser.send('POST', '/form', { headers, body })
      expect([answer.status, answer.text]).toEqual([419, '{"error":"CSRF token mismatch"}'])
    })

    it('refuses a token in the query string only', async () => {
      const answer = await browser.send('POST', `/form?_token=${await token()}`)
      expect(answer.status).toBe(419)
    })

    it.each([
      ['Sec-Fetch-Site: same-site (a sibling subdomain)', { 'Sec-Fetch-Site': 'same-site' }, 419],
      ['Sec-Fetch-Site: cross-site', { 'Sec-Fetch-Site': 'cross-site' }, 419],
      ['an Origin of another site', { Origin: 'https://evil.example' }, 419],
      ['Sec-Fetch-Site: same-origin', { 'Sec-Fetch-Site': 'same-origin' }, 200],
      ['a trusted Origin', { Origin: 'https://admin.example.test' }, 200],
      // A form of this origin on a page with Referrer-Policy: no-referrer (a password reset page); without fetch
      // metadata, as over plain http to a host other than localhost, or from an older browser: the token decides.
      ['Origin: null from the same origin', { Origin: 'null', 'Sec-Fetch-Site': 'same-origin' }, 200],
      ['Origin: null without fetch metadata', { Origin: 'null' }, 200],
      ['Origin: null from another site', { Origin: 'null', 'Sec-Fetch-Site': 'cross-site' }, 419],
      ['Origin: null from a sibling subdomain', { Origin: 'null', 'Sec-Fetch-Site': 'same-site' }, 419],
    ])('with a valid token, answers %s with %i', async (_, headers, status) => {
      const value = await token()
      const answer = await browser.send('POST', '/form', { headers: { ...json, 'X-CSRF-Token': value, ...headers }, body: '{}' })
      expect(answer.status).toBe(status)
    })

    it.each([
      ['a wrong token', 'wrong'],
      ['no token', undefined],
    ])('answers 419 to Origin: null without fetch metadata and %s', async (_, given) => {
      await token()
      const answer = await browser.send('POST', '/form', {
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: 'null' },
        body: new URLSearchParams({ ...(given === undefined ? {} : { _token: given }), name: 'Eve' }).toString(),
      })
      expect([answer.status, answer.text]).toEqual([419, '{"error":"CSRF token mismatch"}'])
    })

    it('accepts the own Origin, and exempts requests that carry a bearer token', async () => {
      const value = await token()
      const own = await browser.send('POST', '/form', { headers: { ...json, 'X-CSRF-Token': value, Origin: server.url }, body: '{}' })
      expect(own.status).toBe(200)
      const api = await new Browser(server.url).send('POST', '/form', { headers: { ...json, Authorization: 'Bearer abc' }, body: '{}' })
      expect(api.status).toBe(200)
    })

    it('is a 500 naming the fix when the route has no session middleware', async () => {
      const answer = await browser.send('POST', '/no-session', { headers: json, body: '{}' })
      expect(answer.status).toBe(500)
    })
  })
})
