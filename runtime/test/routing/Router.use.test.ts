import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Container } from '../../src/container/Container.js'
import type { Request } from '../../src/http/Request.js'
import { Response } from '../../src/http/Response.js'
import type { Middleware } from '../../src/routing/RouteDefinition.js'
import { Router } from '../../src/routing/Router.js'
import { transports, type OpenApp } from '../support/servers.js'

/** A middleware that adds its name to X-Trace on the way out: the header reads outermost first. */
function tag(name: string): Middleware {
  const middleware: Middleware = async (_request, next) => {
    const response = await next()
    const trace = response.getHeader('X-Trace')
    return response.setHeader('X-Trace', trace ? `${name} ${trace}` : name)
  }
  Object.defineProperty(middleware, 'name', { value: name })
  return middleware
}

const api = tag('api')

function buildRouter(): Router {
  const router = new Router(new Container())
  router.publicFiles(false)
  router.use(tag('first'))
  router.use('/api/*', api)
  router.use(tag('last'))
  router.use('/health', tag('health'))
  router.use('/assets/img/*', tag('img'))
  router.use('/users', tag('list'))
  const ok = (request: Request) => Response.json({ route: request.route()?.pattern ?? null })
  router.get('/api', ok)
  router.get('/api/users', ok)
  router.post('/api/users', ok)
  router.get('/api/users/{id}', ok)
  router.get('/apiary', ok)
  router.get('/health', ok)
  router.get('/healthz', ok)
  router.get('/{section}/items', ok)
  router.get('/assets/{path*}', ok)
  router.get('/users/{id?}', ok)
  router.get('/{file}.{ext}/raw', ok)
  return router
}

describe.each(transports)('router.use(path, middleware) on $name', ({ open }) => {
  let app: OpenApp
  beforeAll(async () => {
    app = await open(buildRouter())
  })
  afterAll(() => app.close())

  const trace = async (path: string, init?: RequestInit) => {
    const response = await app.fetch(path, init)
    return `${response.status} ${response.headers.get('x-trace')}`
  }

  it.each([
    ['/api', '200 first api last'],
    ['/api/users', '200 first api last'],
    ['/api/users/7', '200 first api last'],
    ['/%61pi/users', '200 first api last'],
    ['/apiary', '200 first last'],
    ['/health', '200 first last health'],
    ['/healthz', '200 first last'],
    ['/api/items', '200 first api last'],
    ['/shop/items', '200 first last'],
    ['/assets/img/logo.png', '200 first last img'],
    ['/assets/css/site.css', '200 first last'],
    ['/users', '200 first last list'],
    ['/users/5', '200 first last'],
    ['/api.json/raw', '200 first last'],
    ['/api-docs/raw', '404 first last'],
  ])('GET %s runs the middleware of its paths, in the order added: %s', async (path, expected) => {
    expect(await trace(path)).toBe(expected)
  })

  it('runs for the answers no route gives as well: 404, 405, OPTIONS and a malformed path', async () => {
    expect(await trace('/api/nowhere')).toBe('404 first api last')
    expect(await trace('/nowhere')).toBe('404 first last')
    expect(await trace('/api/users', { method: 'DELETE' })).toBe('405 first api last')
    expect(await trace('/api/users', { method: 'OPTIONS' })).toBe('204 first api last')
    expect(await trace('/apiary', { method: 'OPTIONS' })).toBe('204 first last')
    expect(await trace('/api/%E0%A4%A')).toBe('400 first api last')
  })
})

describe('router.use(path, middleware): registration', () => {
  it('decides at compile time: a route inside has the middleware itself in its pipeline, a route outside has none', async () => {
    const router = buildRouter().commit()
    const route = (pattern: string) => router.getRoutes().find((candidate) => candidate.pattern === pattern)!
    expect(route('/api/users').layers).toContain(api)
    expect(route('/apiary').layers!.map((layer) => layer.name)).toEqual(['first', 'last'])
    // Only where a parameter decides is the request checked: a layer of its own, not the middleware.
    expect(route('/{section}/items').layers).toHaveLength(3)
    expect(route('/{section}/items').layers).not.toContain(api)
  })

  it('lists the global middleware and the path-scoped middleware apart', () => {
    const router = buildRouter()
    expect(router.getGlobalMiddleware().map((middleware) => (middleware as Middleware).name)).toEqual(['first', 'last'])
    expect(router.getPathMiddleware().map(({ path, middleware }) => `${path} ${(middleware as Middleware).name}`)).toEqual([
      '/api/* api',
      '/health health',
      '/assets/img/* img',
      '/users list',
    ])
  })

  it('refuses an unsupported pattern, a pattern without middleware, and an alias that would read as a path', () => {
    const router = new Router(new Container())
    expect(() => router.use('/api/*/users', api)).toThrow('router.use("/api/*/users"): a path pattern is a path, optionally ending in "/*"')
    expect(() => router.use('/users/{id}', api)).toThrow('parameters, "?" and "*" elsewhere are not supported')
    expect(() => router.use('api/*', api)).toThrow('router.use("api/*")')
    expect(() => router.use('/api/*')).toThrow('router.use("/api/*") needs the middleware to run for those paths')
    expect(() => router.aliasMiddleware('/api', api)).toThrow('Middleware alias "/api"')
  })

  it('takes an alias after the path, resolved when the routes compile', async () => {
    const router = new Router(new Container())
    router.aliasMiddleware('traced', tag('traced'))
    router.use('/api/*', 'traced')
    router.get('/api/ping', () => ({ pong: true }))
    router.get('/ping', () => ({ pong: true }))
    const { testClient } = await import('../../src/testing/TestClient.js')
    const client = testClient(router)
    expect((await client.get('/api/ping')).headers.get('x-trace')).toBe('traced')
    expect((await client.get('/ping')).headers.get('x-trace')).toBe(null)
  })
})
