import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Container } from '../../src/container/Container.js'
import { Response } from '../../src/http/Response.js'
import { cors } from '../../src/middleware/cors.js'
import type { Middleware } from '../../src/routing/RouteDefinition.js'
import { Router } from '../../src/routing/Router.js'
import { transports, type OpenApp } from '../support/servers.js'

const APP = 'https://app.example.test'

describe.each(transports)('cors on $name', ({ open: openApp }) => {
  let open: OpenApp
  let strict: OpenApp

  beforeAll(async () => {
    const anyOrigin = new Router(new Container())
    anyOrigin.use(cors())
    anyOrigin.get('/tasks', () => Response.json({ tasks: [] }))
    open = await openApp(anyOrigin)

    const named = new Router(new Container())
    named.use(cors({ origin: [APP], credentials: true, headers: ['Content-Type', 'X-API-Key'], exposeHeaders: ['X-Total-Count'], maxAge: 60 }))
    named.get('/tasks', () => Response.json({ tasks: [] }).setHeader('X-Total-Count', '0'))
    named.post('/tasks', () => Response.json({ created: true }, 201))
    named.get('/negotiated', () => Response.json({}).setHeader('Vary', 'Accept-Encoding'))
    named.get('/any-origin', () => Response.json({}).setHeader('Vary', '*'))
    strict = await openApp(named)
  })
  afterAll(async () => {
    await open.close()
    await strict.close()
  })

  it('answers any origin with * by default, and sends nothing to a request without Origin', async () => {
    const cross = await open.fetch('/tasks', { headers: { Origin: 'https://anywhere.test' } })
    expect(cross.headers.get('access-control-allow-origin')).toBe('*')
    expect(cross.headers.get('vary')).toBe(null)
    const plain = await open.fetch('/tasks')
    expect(plain.headers.get('access-control-allow-origin')).toBe(null)
  })

  it('answers a preflight itself with 204 and what it allows', async () => {
    const preflight = await strict.fetch('/tasks', {
      method: 'OPTIONS',
      headers: { Origin: APP, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
    })
    expect(preflight.status).toBe(204)
    expect(Object.fromEntries([...preflight.headers].filter(([name]) => name.startsWith('access-control') || name === 'vary'))).toEqual({
      'access-control-allow-origin': APP,
      'access-control-allow-credentials': 'true',
      'access-control-allow-methods': 'GET, HEAD, POST, PUT, PATCH, DELETE',
      'access-control-allow-headers': 'Content-Type, X-API-Key',
      'access-control-max-age': '60',
      vary: 'Origin',
    })
  })

  it('names the allowed origin, with credentials and exposed headers, on real requests', async () => {
    const created = await strict.fetch('/tasks', { method: 'POST', headers: { Origin: APP } })
    expect(created.status).toBe(201)
    expect(created.headers.get('access-control-allow-origin')).toBe(APP)
    expect(created.headers.get('access-control-allow-credentials')).toBe('true')
    const listed = await strict.fetch('/tasks', { headers: { Origin: APP } })
    expect(listed.headers.get('access-control-expose-headers')).toBe('X-Total-Count')
  })

  it('gives an origin that is not allowed no CORS headers, and its preflight only the plain OPTIONS answer', async () => {
    const other = await strict.fetch('/tasks', { headers: { Origin: 'https://evil.test' } })
    expect(other.status).toBe(200)
    expect(other.headers.get('access-control-allow-origin')).toBe(null)
    const preflight = await strict.fetch('/tasks', { method: 'OPTIONS', headers: { Origin: 'https://evil.test', 'Access-Control-Request-Method': 'POST' } })
    expect([preflight.status, preflight.headers.get('allow'), preflight.headers.get('access-control-allow-origin')]).toEqual([204, 'GET, HEAD, OPTIONS, POST', null])
  })

  it('unless any origin is allowed, every answer varies on Origin: allowed, refused, preflights and requests without one', async () => {
    const vary = async (path: string, init: RequestInit = {}) => (await strict.fetch(path, init)).headers.get('vary')
    const preflight = (origin: string) => ({ method: 'OPTIONS', headers: { Origin: origin, 'Access-Control-Request-Method': 'POST' } })
    expect(await vary('/tasks', { headers: { Origin: APP } })).toBe('Origin')
    expect(await vary('/tasks', { headers: { Origin: 'https://evil.test' } })).toBe('Origin')
    expect(await vary('/tasks')).toBe('Origin')
    expect(await vary('/tasks', preflight(APP))).toBe('Origin')
    expect(await vary('/tasks', preflight('https://evil.test'))).toBe('Origin')
    expect(await vary('/nowhere')).toBe('Origin')
    // Appended to what the response varies on already, once.
    expect(await vary('/negotiated', { headers: { Origin: APP } })).toBe('Accept-Encoding, Origin')
    expect(await vary('/negotiated')).toBe('Accept-Encoding, Origin')
    expect(await vary('/any-origin')).toBe('*')
  })

  it('refuses credentials with any origin when it is set up', () => {
    expect(() => cors({ credentials: true })).toThrow("cors: credentials need the allowed origins named (origin: ['https://…']), never '*'")
  })
})

/** cors() where it is given: on a group, on a route, on a path (issue 24); a preflight runs through its route's middleware. */
describe.each(transports)('cors on a group, a route and a path, on $name', ({ open: openApp }) => {
  let app: OpenApp

  beforeAll(async () => {
    const router = new Router(new Container())
    const requireToken: Middleware = (request, next) => (request.header('authorization') === 'Bearer t' ? next() : Response.error('Unauthenticated', 401))
    router.use(async (request, next) => (await next()).setHeader('X-Route', request.route()?.pattern ?? 'none'))
    router.group({ prefix: '/api', middleware: [cors({ origin: [APP] }), requireToken] }, () => {
      router.get('/tasks', () => ({ tasks: [] }))
      router.post('/tasks', () => Response.json({ created: true }, 201))
    })
    router.put('/items/{id}', () => ({ updated: true })).middleware(cors({ origin: [APP] }))
    router.get('/items/{id}', () => ({ item: true }))
    router.use('/public/*', cors())
    router.get('/public/feed', () => ({ feed: [] }))
    router.get('/closed', () => ({ closed: true }))
    app = await openApp(router)
  })
  afterAll(() => app.close())

  const preflight = (path: string, method: string) =>
    app.fetch(path, { method: 'OPTIONS', headers: { Origin: APP, 'Access-Control-Request-Method': method } })

  it("a group's cors answers the preflights of its routes, before the group's own auth middleware", async () => {
    const answer = await preflight('/api/tasks', 'POST')
    expect([answer.status, answer.headers.get('access-control-allow-origin'), answer.headers.get('access-control-allow-methods')]).toEqual([
      204,
      APP,
      'GET, HEAD, POST, PUT, PATCH, DELETE',
    ])
    // Inside the route's middleware, the preflight names the route it asks about.
    expect(answer.headers.get('x-route')).toBe('/api/tasks')
    const refused = await app.fetch('/api/tasks', { method: 'POST', headers: { Origin: APP } })
    expect([refused.status, refused.headers.get('access-control-allow-origin')]).toEqual([401, APP])
    const created = await app.fetch('/api/tasks', { method: 'POST', headers: { Origin: APP, Authorization: 'Bearer t' } })
    expect([created.status, created.headers.get('access-control-allow-origin')]).toEqual([201, APP])
  })

  it("a route's cors answers the preflight of that route, not those of the path's other methods", async () => {
    const put = await preflight('/items/5', 'PUT')
    expect([put.status, put.headers.get('access-control-allow-origin'), put.headers.get('x-route')]).toEqual([204, APP, '/items/{id}'])
    const get = await preflight('/items/5', 'GET')
    expect([get.status, get.headers.get('allow'), get.headers.get('access-control-allow-origin')]).toEqual([204, 'GET, HEAD, OPTIONS, PUT', null])
  })

  it('a preflight for a method with no route at the path, and a plain OPTIONS, get the plain 204 through the global middleware', async () => {
    const asked = await preflight('/api/tasks', 'DELETE')
    expect([asked.status, asked.headers.get('allow'), asked.headers.get('access-control-allow-origin'), asked.headers.get('x-route')]).toEqual([
      204,
      'GET, HEAD, OPTIONS, POST',
      null,
      'none',
    ])
    const plain = await app.fetch('/api/tasks', { method: 'OPTIONS', headers: { Origin: APP } })
    expect([plain.status, plain.headers.get('access-control-allow-origin'), plain.headers.get('x-route')]).toEqual([204, null, 'none'])
  })

  it("router.use('/public/*', cors()) answers the preflights and requests of its paths, 404s included, and no others", async () => {
    expect((await preflight('/public/feed', 'GET')).headers.get('access-control-allow-origin')).toBe('*')
    expect((await app.fetch('/public/feed', { headers: { Origin: APP } })).headers.get('access-control-allow-origin')).toBe('*')
    const missing = await app.fetch('/public/missing', { headers: { Origin: APP } })
    expect([missing.status, missing.headers.get('access-control-allow-origin')]).toEqual([404, '*'])
    expect((await app.fetch('/closed', { headers: { Origin: APP } })).headers.get('access-control-allow-origin')).toBe(null)
  })
})
