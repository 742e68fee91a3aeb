import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { Container } from '../../src/container/Container.js'
import { Response } from '../../src/http/Response.js'
import { Route } from '../../src/routing/Route.js'
import { Router } from '../../src/routing/Router.js'
import { UrlSigner } from '../../src/routing/UrlSigner.js'
import { generateAppKey } from '../../src/session/generateAppKey.js'
import { readJson, transports, type OpenApp } from '../support/servers.js'

const KEY = generateAppKey()
const OLD_KEY = generateAppKey()
const now = () => Math.floor(Date.now() / 1000)

describe('UrlSigner', () => {
  const signer = new UrlSigner([KEY])

  it('signs a path and its query, and verifies the link as it was made', () => {
    const link = signer.sign('/unsubscribe/5?list=news')
    expect(link).toMatch(/^\/unsubscribe\/5\?list=news&signature=[0-9a-f]{64}$/)
    expect(signer.verify(link)).toBe('valid')
    expect(signer.verify(signer.sign('/unsubscribe/5'))).toBe('valid')
  })

  it('finds a link invalid when any part of it changed, or without a signature', () => {
    const link = signer.sign('/unsubscribe/5?list=news', now() + 60)
    const [content, signature] = link.split('&signature=') as [string, string]
    const changed = [
      link.replace('/5', '/6'),
      link.replace('list=news', 'list=all'),
      link.replace(/expires=\d+/, `expires=${now() + 9999}`),
      `${content}&admin=1&signature=${signature}`,
      link.replace('list=news&', ''),
      `${content}&signature=${signature.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'))}`,
      content,
      `${content}&signature=${signature}&more=1`,
      `${content}&signature=${signature.toUpperCase()}`,
    ]
    for (const target of changed) expect([target, signer.verify(target)]).toEqual([target, 'invalid'])
  })

  it('finds a link past its expiry expired, signed or not by the current key', () => {
    expect(signer.verify(signer.sign('/download', now() - 1))).toBe('expired')
    expect(signer.verify(signer.sign('/download', now() + 60), Date.now() + 61_000)).toBe('expired')
    expect(signer.verify(signer.sign('/download', now() + 60))).toBe('valid')
  })

  it('verifies links signed with a previous key, and none signed with another', () => {
    const old = new UrlSigner([OLD_KEY]).sign('/download')
    expect(new UrlSigner([KEY, OLD_KEY]).verify(old)).toBe('valid')
    expect(signer.verify(old)).toBe('invalid')
    // A key for signed links is not the session's: the same secret signs differently than it seals.
    expect(new UrlSigner([generateAppKey()]).verify(signer.sign('/download'))).toBe('invalid')
  })
})

describe.each(transports)('router.signedUrl() and the signed middleware on $name', ({ open: openApp }) => {
  let app: OpenApp
  let router: Router
  const saved = { APP_KEY: process.env.APP_KEY, APP_URL: process.env.APP_URL, APP_PREVIOUS_KEYS: process.env.APP_PREVIOUS_KEYS }

  beforeAll(async () => {
    process.env.APP_KEY = KEY
    process.env.APP_URL = 'https://shop.example.com/'
    delete process.env.APP_PREVIOUS_KEYS
    router = new Router(new Container())
    router.get('/unsubscribe/{user}', (request) => Response.json({ user: request.param('user') })).name('unsubscribe').middleware('signed')
    router.get('/link/{user}', (request) => Response.json({ link: router.signedUrl('unsubscribe', { user: request.param('user')! }, { expiresIn: 60 }) }))
    app = await openApp(router)
  })
  afterAll(async () => {
    await app.close()
    Object.assign(process.env, saved)
    for (const [name, value] of Object.entries(saved)) if (value === undefined) delete process.env[name]
  })
  afterEach(() => {
    process.env.APP_URL = 'https://shop.example.com/'
  })

  /** The path and query of a link, requested from the test server. */
  const open = (link: string) => app.fetch(link.replace('https://shop.example.com', ''))

  it('builds an absolute link on APP_URL, whatever Host the request had, and the route answers it', async () => {
    const made = await app.fetch('/link/5', { headers: { Host: 'evil.example.net' } })
    const { link } = (await readJson(made)) as { link: string }
    expect(link).toMatch(/^https:\/\/shop\.example\.com\/unsubscribe\/5\?expires=\d+&signature=[0-9a-f]{64}$/)
    const answered = await open(link)
    expect([answered.status, await readJson(answered)]).toEqual([200, { user: '5' }])
  })

  it('answers 403 to a changed, unsigned or expired link', async () => {
    const link = router.signedUrl('unsubscribe', { user: 5 })
    expect(link).toMatch(/^https:\/\/shop\.example\.com\/unsubscribe\/5\?signature=[0-9a-f]{64}$/)
    expect((await open(link)).status).toBe(200)
    for (const target of [link.replace('/5?', '/6?'), '/unsubscribe/5', `${link}&x=1`]) {
      const refused = await open(target)
      expect([target, refused.status, await readJson(refused)]).toEqual([target, 403, { error: 'Invalid signature.' }])
    }
    const expired = new UrlSigner([KEY]).sign('/unsubscribe/5', now() - 1)
    const refused = await open(expired)
    expect([refused.status, await readJson(refused)]).toEqual([403, { error: 'This link has expired.' }])
  })

  it('refuses to build a link without a usable APP_URL, with a bad expiry, or over its own parameters', () => {
    for (const url of ['', 'shop.example.com', 'https://shop.example.com/app?x=1']) {
      process.env.APP_URL = url
      expect(() => router.signedUrl('unsubscribe', { user: 5 })).toThrow(`APP_URL must be the application's address (APP_URL=https://example.com in .env) for signed links, got ${JSON.stringify(url)}`)
    }
    process.env.APP_URL = 'https://shop.example.com'
    expect(() => router.signedUrl('unsubscribe', { user: 5 }, { expiresIn: 0 })).toThrow('signedUrl(): expiresIn is a number of seconds above 0, got 0')
    expect(() => router.signedUrl('unsubscribe', { user: 5, signature: 'x' })).toThrow('signedUrl(): "signature" is the signature\'s own parameter; name yours otherwise')
    expect(() => router.signedUrl('nowhere')).toThrow('No route is named "nowhere"')
  })

  it('builds an unsigned absolute link on APP_URL with absoluteUrl(), and refuses without a usable APP_URL', () => {
    expect(router.absoluteUrl('unsubscribe', { user: 5, email: 'ada@example.com' })).toBe('https://shop.example.com/unsubscribe/5?email=ada%40example.com')
    process.env.APP_URL = 'shop.example.com'
    expect(() => router.absoluteUrl('unsubscribe', { user: 5 })).toThrow(`APP_URL must be the application's address (APP_URL=https://example.com in .env) for links in mail, got "shop.example.com"`)
  })
})

describe('Route.url(), Route.signedUrl() and Route.absoluteUrl(), for app code', () => {
  it('need the application\'s routes loaded, then answer for its named routes', async () => {
    expect(() => Route.url('users.show', { id: 5 })).toThrow("Route.url() needs the application's routes: it works once router.loadRoutesFromFile() has loaded them")
    const router = new Router(new Container())
    await router.loadRoutes(async () => {
      Route.get('/users/{id}', () => Response.json({})).name('users.show').middleware('signed')
    })
    process.env.APP_KEY = KEY
    process.env.APP_URL = 'https://shop.example.com'
    try {
      expect(Route.url('users.show', { id: 5, tab: 'posts' })).toBe('/users/5?tab=posts')
      const link = Route.signedUrl('users.show', { id: 5 })
      expect(new UrlSigner([KEY]).verify(link.slice('https://shop.example.com'.length))).toBe('valid')
      expect(Route.absoluteUrl('users.show', { id: 5 })).toBe('https://shop.example.com/users/5')
    } finally {
      delete process.env.APP_KEY
      delete process.env.APP_URL
    }
  })
})
