import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { Container } from '../../src/container/Container.js'
import { HttpError } from '../../src/http/HttpError.js'
import type { Request } from '../../src/http/Request.js'
import { Response } from '../../src/http/Response.js'
import { Route } from '../../src/routing/Route.js'
import type { Middleware } from '../../src/routing/RouteDefinition.js'
import { Router } from '../../src/routing/Router.js'
import type { RunningServer } from '../../src/server/listen.js'
import { GreetingService } from '../fixtures/app/App/GreetingService.js'
import { UserController } from '../fixtures/app/App/UserController.js'
import { listenOn, readJson, servers } from '../support/servers.js'


function tag(name: string, log: string[]): Middleware {
  return async (_request, next) => {
    log.push(`${name}:before`)
    const response = await next()
    log.push(`${name}:after`)
    return response.setHeader(`X-${name}`, 'seen')
  }
}

/** The DESIGN.md errors table and the routing rules, on one router served by each server. */
function buildRouter(debug: boolean, log: string[]): Router {
  const container = new Container()
  container.singleton('greeter', GreetingService)
  const router = new Router(container, { debug })
  router.get('/hello', () => Response.json({ message: 'Hello, World!' }))
  router.get('/greet/{name}', (_request: Request, name: string) => Response.json({ message: `Hello, ${name}!` }))
  router.get('/order/{a}/{b}/{c}', (request: Request, ...params: string[]) => ({ params, request: request.params }))
  router.get('/no-args', () => Response.text('no arguments needed'))
  router.post('/items', () => Response.json({ created: true }, 201))
  router.put('/items/{id}', (_request: Request, id: string) => ({ updated: id }))
  router.delete('/items/{id}', (_request: Request, id: string) => ({ deleted: id }))
  router.patch('/items/{id}', (_request: Request, id: string) => ({ patched: id }))
  router.options('/custom-options', () => Response.text('', 204).setHeader('Allow', 'GET'))
  router.any('/anything', (request: Request) => ({ method: request.method() }))
  router.match(['GET', 'POST'], '/form', (request: Request) => ({ method: request.method() }))
  router.get('/users/{id}', [UserController, 'show'])
  router.get('/plain-object', () => ({ users: [{ id: 1 }] }))
  router.get('/plain-array', () => [1, 2, 3])
  router.get('/returns-number', () => 42 as unknown as Response)
  router.get('/returns-undefined', () => undefined as unknown as Response)
  router.get('/throws', () => {
    throw new Error('database exploded')
  })
  router.get('/rejects', async () => {
    await Promise.resolve()
    throw new TypeError('async failure')
  })
  router.get('/http-error', () => {
    throw new HttpError(403, 'Forbidden', { headers: { 'X-Reason': 'policy' } })
  })
  router.get('/users/{id}/optional/{page?}', (_request: Request, id: string, page?: string) => ({ id, page: page ?? null }))
  router.get('/static/new', () => ({ which: 'static' }))
  router.get('/static/{slug}', (_request: Request, slug: string) => ({ which: 'param', slug }))
  router.get('/trail', () => ({ trail: true }))

  router.use(tag('Global', log))
  router.aliasMiddleware('named', tag('Named', log))
  router.group({ prefix: '/admin', middleware: tag('Group', log), as: 'admin.' }, () => {
    router.group({ prefix: 'nested' }, () => {
      router.get('/dashboard', () => {
        log.push('handler')
        return Response.json({ area: 'admin' })
      }).middleware(tag('Route', log), 'named').name('dashboard')
    })
  })
  router.get('/short-circuit', () => ({ never: true })).middleware(() => Response.error('Unauthorized', 401))
  return router
}

describe.each(servers)('Router over $name', ({ start }) => {
  const log: string[] = []
  let server: RunningServer
  let debugServer: RunningServer
  const get = (path: string, init?: RequestInit) => fetch(`${server.url}${path}`, init)

  beforeAll(async () => {
    server = await listenOn(start, buildRouter(false, log))
    debugServer = await listenOn(start, buildRouter(true, []))
  })
  afterAll(async () => {
    await server.close()
    await debugServer.close()
  })
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('GET /hello answers the closure\'s JSON', async () => {
    const res = await get('/hello')
    expect(res.status).toBe(200)
    expect(await readJson(res)).toEqual({ message: 'Hello, World!' })
  })

  it('a closure receives the Request, then parameters in path order, as strings', async () => {
    expect(await readJson(await get('/greet/Ada'))).toEqual({ message: 'Hello, Ada!' })
    expect(await readJson(await get('/order/1/2/3'))).toEqual({ params: ['1', '2', '3'], request: { a: '1', b: '2', c: '3' } })
  })

  it('a closure may take no arguments', async () => {
    expect(await (await get('/no-args')).text()).toBe('no arguments needed')
  })

  it('POST, PUT, PATCH and DELETE reach their routes', async () => {
    expect((await get('/items', { method: 'POST' })).status).toBe(201)
    expect(await readJson(await get('/items/7', { method: 'PUT' }))).toEqual({ updated: '7' })
    expect(await readJson(await get('/items/7', { method: 'PATCH' }))).toEqual({ patched: '7' })
    expect(await readJson(await get('/items/7', { method: 'DELETE' }))).toEqual({ deleted: '7' })
  })

  it('any() answers every method and match() the listed ones', async () => {
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
      expect(await readJson(await get('/anything', { method }))).toEqual({ method })
    }
    expect(await readJson(await get('/form', { method: 'POST' }))).toEqual({ method: 'POST' })
    expect((await get('/form', { method: 'DELETE' })).status).toBe(405)
  })

  it('a controller is resolved from the container with its dependency and the request injected', async () => {
    const res = await get('/users/42')
    expect(await readJson(res)).toEqual({ user: { id: '42', name: 'Hello, user 42!' }, sameRequest: true })
  })

  it('404 Not Found for a path with no route', async () => {
    const res = await get('/nowhere')
    expect(res.status).toBe(404)
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(await readJson(res)).toEqual({ error: 'Not Found' })
  })

  it('405 Method Not Allowed with an Allow header when the path exists', async () => {
    const res = await get('/hello', { method: 'POST' })
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
    expect(await readJson(res)).toEqual({ error: 'Method Not Allowed' })
    const items = await get('/items/1', { method: 'POST' })
    expect(items.headers.get('allow')).toBe('DELETE, OPTIONS, PATCH, PUT')
  })

  it('HEAD on a GET route answers as GET, without a body', async () => {
    const res = await get('/hello', { method: 'HEAD' })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(res.headers.get('content-length')).toBe(String('{"message":"Hello, World!"}'.length))
    expect(await res.text()).toBe('')
  })

  it('OPTIONS answers 204 with Allow, unless the app registered its own OPTIONS route', async () => {
    const res = await get('/items/3', { method: 'OPTIONS' })
    expect(res.status).toBe(204)
    expect(res.headers.get('allow')).toBe('DELETE, OPTIONS, PATCH, PUT')
    expect(await res.text()).toBe('')
    const custom = await get('/custom-options', { method: 'OPTIONS' })
    expect(custom.headers.get('allow')).toBe('GET')
    expect((await get('/nowhere', { method: 'OPTIONS' })).status).toBe(404)
  })

  it('malformed percent-encoding in the path answers 400, and the server keeps serving', async () => {
    const res = await get('/greet/%E0%A4%A')
    expect(res.status).toBe(400)
    expect(await readJson(res)).toEqual({ error: 'Malformed URL' })
    expect((await get('/hello')).status).toBe(200)
  })

  it('percent-encoded parameters arrive decoded', async () => {
    expect(await readJson(await get('/greet/J%C3%BCrgen%20M'))).toEqual({ message: 'Hello, Jürgen M!' })
  })

  it('a handler that throws answers 500 without detail, logs the error, and the server keeps serving', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const res = await get('/throws')
    expect(res.status).toBe(500)
    expect(await readJson(res)).toEqual({ error: 'Internal Server Error' })
    expect(String(errors.mock.calls[0]?.[0])).toContain('GET /throws')
    const rejected = await get('/rejects')
    expect(rejected.status).toBe(500)
    expect(await readJson(rejected)).toEqual({ error: 'Internal Server Error' })
    expect((await get('/hello')).status).toBe(200)
  })

  it('with APP_DEBUG=true a 500 carries the message and the stack', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const res = await fetch(`${debugServer.url}/throws`)
    expect(res.status).toBe(500)
    const body = await readJson(res)
    expect(body.error).toBe('database exploded')
    expect(body.exception).toBe('Error')
    expect(body.stack.join('\n')).toContain('Router.test.ts')
  })

  it('debug defaults to the APP_DEBUG environment variable', () => {
    const previous = process.env.APP_DEBUG
    process.env.APP_DEBUG = 'true'
    expect(new Router(new Container()).debug).toBe(true)
    process.env.APP_DEBUG = 'false'
    expect(new Router(new Container()).debug).toBe(false)
    if (previous === undefined) delete process.env.APP_DEBUG
    else process.env.APP_DEBUG = previous
  })

  it('HttpError thrown by a handler answers its status, message and headers', async () => {
    const res = await get('/http-error')
    expect(res.status).toBe(403)
    expect(res.headers.get('x-reason')).toBe('policy')
    expect(await readJson(res)).toEqual({ error: 'Forbidden' })
  })

  it('plain objects and arrays become JSON responses', async () => {
    const res = await get('/plain-object')
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(await readJson(res)).toEqual({ users: [{ id: 1 }] })
    expect(await readJson(await get('/plain-array'))).toEqual([1, 2, 3])
  })

  it('anything else is a 500 whose logged message (and debug body) names the route', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const res = await get('/returns-number')
    expect(res.status).toBe(500)
    expect(await readJson(res)).toEqual({ error: 'Internal Server Error' })
    expect(String((errors.mock.calls[0]?.[1] as Error).message)).toBe(
      'GET /returns-number returned a number; a handler must return a Response or a plain object',
    )
    const debug = await readJson(await fetch(`${debugServer.url}/returns-undefined`))
    expect(debug.error).toBe('GET /returns-undefined returned undefined; a handler must return a Response or a plain object')
  })

  it('middleware runs global → group → route → named, around the handler, in order', async () => {
    log.length = 0
    const res = await get('/admin/nested/dashboard')
    expect(await readJson(res)).toEqual({ area: 'admin' })
    expect(log).toEqual([
      'Global:before',
      'Group:before',
      'Route:before',
      'Named:before',
      'handler',
      'Named:after',
      'Route:after',
      'Group:after',
      'Global:after',
    ])
    for (const name of ['global', 'group', 'route', 'named']) expect(res.headers.get(`x-${name}`)).toBe('seen')
  })

  it('global middleware also wraps 404s; route middleware can answer without calling next', async () => {
    const missing = await get('/nowhere')
    expect(missing.headers.get('x-global')).toBe('seen')
    const blocked = await get('/short-circuit')
    expect(blocked.status).toBe(401)
    expect(await readJson(blocked)).toEqual({ error: 'Unauthorized' })
  })

  it('an optional parameter matches with and without its segment', async () => {
    expect(await readJson(await get('/users/5/optional/2'))).toEqual({ id: '5', page: '2' })
    expect(await readJson(await get('/users/5/optional'))).toEqual({ id: '5', page: null })
  })

  it('a static segment wins over a parameter at the same place', async () => {
    expect(await readJson(await get('/static/new'))).toEqual({ which: 'static' })
    expect(await readJson(await get('/static/other'))).toEqual({ which: 'param', slug: 'other' })
  })

  it('a trailing slash finds the same route', async () => {
    expect(await readJson(await get('/trail/'))).toEqual({ trail: true })
  })
})

describe('Router registration and lookup', () => {
  it('names routes (with group prefixes) and generates URLs', () => {
    const router = new Router(new Container())
    router.get('/users/{id}', () => ({})).name('users.show')
    router.get('/posts/{post}/comments/{comment?}', () => ({})).name('comments')
    router.group({ prefix: '/admin', as: 'admin.' }, () => {
      router.get('/', () => ({})).name('home')
    })
    expect(router.url('users.show', { id: 5 })).toBe('/users/5')
    expect(router.url('users.show', { id: 'a b', tab: 'posts' })).toBe('/users/a%20b?tab=posts')
    expect(router.url('comments', { post: 1 })).toBe('/posts/1/comments')
    expect(router.url('admin.home')).toBe('/admin')
    expect(() => router.url('users.show')).toThrow('Route "users.show" needs the parameter "id"')
    expect(() => router.url('nope')).toThrow('No route is named "nope"')
  })

  it('refuses malformed patterns and handlers at registration, naming the route', () => {
    const router = new Router(new Container())
    expect(() => router.get('/files/{name}{ext}', () => ({}))).toThrow('has no text between the parameters')
    expect(() => router.get('/files/{name?}.txt', () => ({}))).toThrow('an optional parameter {name?} must be a whole path segment')
    expect(() => router.get('/a/{id}/b/{id}', () => ({}))).toThrow('parameter {id} appears twice')
    expect(() => router.get('/x', [UserController, 'missing' as 'show'])).toThrow('UserController has no method "missing"')
    expect(() => router.get('/y', 'nope' as never)).toThrow("a handler is a function or [Controller, 'method']")
  })

  it('constrains a resource\'s parameter on the routes that have it, and refuses a parameter it does not have', () => {
    class PhotoController {
      index() {}
      show() {}
    }
    const router = new Router(new Container())
    const routes = router.apiResource('photos', PhotoController, { only: ['index', 'show'], where: { photo: /\d+/ } })
    expect(routes.map((route) => [route.pattern, route.constraints?.length ?? 0])).toEqual([['/photos', 0], ['/photos/{photo}', 1]])
    expect(routes[1]!.accepts(['12'])).toBe(true)
    expect(routes[1]!.accepts(['abc'])).toBe(false)
    expect(() => router.resource('albums', PhotoController, { only: ['index'], where: { id: /\d+/ } })).toThrow(
      'Resource "albums" has no parameter {id} to constrain: its parameter is {album}',
    )
  })

  it('an unknown middleware alias answers 500 naming the alias', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const router = new Router(new Container(), { debug: true })
    router.get('/guarded', () => ({})).middleware('auth')
    const { Request } = await import('../../src/http/Request.js')
    const { IncomingMessage } = await import('node:http')
    const { Socket } = await import('node:net')
    const message = new IncomingMessage(new Socket())
    message.method = 'GET'
    message.url = '/guarded'
    const response = await router.dispatch(new Request(message))
    expect(response.getStatusCode()).toBe(500)
    expect(JSON.parse(response.getContent()).error).toContain('Middleware "auth" is not registered')
    errors.mockRestore()
  })

  it('each controller route calls its own method, inherited or overridden, on a fresh instance', async () => {
    const { Request } = await import('../../src/http/Request.js')
    const { IncomingMessage } = await import('node:http')
    const { Socket } = await import('node:net')
    class BaseController {
      protected readonly label: string = 'base'
      index(): Response {
        return Response.json({ action: 'index', label: this.label })
      }
      show(_request: Request, id: string): Response {
        return Response.json({ action: 'base show', id })
      }
    }
    class PostController extends BaseController {
      protected override readonly label = 'posts'
      override show(_request: Request, id: string): Response {
        return Response.json({ action: 'posts show', id, label: this.label })
      }
    }
    const router = new Router(new Container())
    router.get('/base', [BaseController, 'index'])
    router.get('/posts', [PostController, 'index'])
    router.get('/posts/{id}', [PostController, 'show'])
    router.get('/base/{id}', [BaseController, 'show'])
    const body = async (url: string) => {
      const message = new IncomingMessage(new Socket())
      message.method = 'GET'
      message.url = url
      return JSON.parse((await router.dispatch(new Request(message))).getContent())
    }
    expect(await body('/base')).toEqual({ action: 'index', label: 'base' })
    expect(await body('/posts')).toEqual({ action: 'index', label: 'posts' })
    expect(await body('/posts/7')).toEqual({ action: 'posts show', id: '7', label: 'posts' })
    expect(await body('/base/8')).toEqual({ action: 'base show', id: '8' })
  })

  it('Route.* outside a routes file says where routes belong', () => {
    expect(() => Route.get('/x', () => ({}))).toThrow('Route.get() was called outside router.loadRoutesFromFile()')
  })

  it('lists routes with methods, pattern, handler and middleware', () => {
    const router = new Router(new Container())
    router.get('/users/{id}', [UserController, 'show']).middleware('auth')
    router.match(['GET', 'POST'], '/form', function form() {
      return {}
    })
    const [users, form] = router.getRoutes()
    expect(users?.methods).toEqual(['GET'])
    expect(users?.pattern).toBe('/users/{id}')
    expect(users?.describeHandler()).toBe('UserController@show')
    expect(users?.middlewareList).toEqual(['auth'])
    expect(form?.methods).toEqual(['GET', 'POST'])
    expect(form?.describeHandler()).toBe('Closure (form)')
  })
})

describe.each(servers)('10,000 routes over $name', ({ start }) => {
  let server: RunningServer

  beforeAll(async () => {
    const router = new Router(new Container())
    for (let i = 0; i < 10_000; i++) {
      router.get(`/r${i}/items/{id}`, (_request: Request, id: string) => ({ route: i, id }))
      router.get(`/static/${i}`, () => ({ static: i }))
    }
    router.get('/users/{id}', (_request: Request, id: string) => ({ user: id }))
    server = await listenOn(start, router)
  })
  afterAll(() => server.close())

  it('finds the right handler among 10,000 parametric and 10,000 static routes', async () => {
    expect(await readJson(await fetch(`${server.url}/users/77`))).toEqual({ user: '77' })
    expect(await readJson(await fetch(`${server.url}/r9999/items/5`))).toEqual({ route: 9999, id: '5' })
    expect(await readJson(await fetch(`${server.url}/r0/items/x`))).toEqual({ route: 0, id: 'x' })
    expect(await readJson(await fetch(`${server.url}/r5000/items/abc`))).toEqual({ route: 5000, id: 'abc' })
    expect(await readJson(await fetch(`${server.url}/static/4321`))).toEqual({ static: 4321 })
    expect((await fetch(`${server.url}/r10000/items/1`)).status).toBe(404)
  })
})
