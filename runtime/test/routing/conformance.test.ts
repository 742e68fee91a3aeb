import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Container } from '../../src/container/Container.js'
import type { Request } from '../../src/http/Request.js'
import { Response } from '../../src/http/Response.js'
import type { Middleware } from '../../src/routing/RouteDefinition.js'
import { Router } from '../../src/routing/Router.js'
import type { RunningServer } from '../../src/server/listen.js'
import { listenOn, sendRaw, servers } from '../support/servers.js'

/**
 * The router's shared case table (issue 14's conformance list, found by peers' suites): every case runs
 * against both servers, polka and node:http, which must answer alike.
 */
interface Case {
  name: string
  /** A request as fetch sends it, or the raw bytes of one (for targets fetch cannot send). */
  request: { method?: string; path: string; body?: string; type?: string } | { raw: string }
  status: number
  json?: unknown
  headers?: Record<string, string>
}

class PhotoController {
  index() { return { action: 'index' } }
  create() { return { action: 'create' } }
  store() { return { action: 'store' } }
  show(_request: Request, photo: string) { return { action: 'show', photo } }
  edit(_request: Request, photo: string) { return { action: 'edit', photo } }
  update(request: Request, photo: string) { return { action: 'update', method: request.method(), photo } }
  destroy(_request: Request, photo: string) { return { action: 'destroy', photo } }
}

class TaskController {
  index() { return { action: 'index' } }
  store() { return { action: 'store' } }
  show(_request: Request, task: string) { return { action: 'show', task } }
  update(_request: Request, task: string) { return { action: 'update', task } }
  destroy(_request: Request, task: string) { return { action: 'destroy', task } }
}

const routeHeader: Middleware = async (request, next) => {
  const response = await next()
  const route = request.route()
  return response.setHeader('X-Route', route ? encodeURI(`${route.routeName ?? ''} ${route.pattern}`) : 'none')
}

function buildRouter(): Router {
  const router = new Router(new Container())
  router.use(routeHeader)
  router.any('/api/animals/{constructor?}', (request: Request) => ({
    param: request.param('constructor') ?? null,
    params: Object.keys(request.params),
    input: request.input('constructor') ?? null,
    hasToString: request.has('toString'),
    hasA: request.has('a'),
    query: request.get('constructor'),
    all: Object.keys(request.all()),
  }))
  router.get('/foo/bar/åαф/{name}', (_request: Request, name: string) => ({ name })).name('unicode')
  router.get('/to-unicode', () => Response.redirect(router.url('unicode', { name: 'ü x' })))
  router.get('/users/{id}', (_request: Request, id: string) => ({ id })).name('users.show')
  router.get('/hello/world', () => ({ hello: 'world' }))
  router.get('/files/{name}', (_request: Request, name: string) => ({ name }))
  router.get('/assets/{path*}', (_request: Request, path: string) => ({ path })).name('assets')
  router.get('/posts/{id}', (_request: Request, id: string) => ({ id })).whereNumber('id')
  router.get('/tags/{slug}', (_request: Request, slug: string) => ({ slug })).where('slug', /[a-z-]+/)
  router.post('/upload', (request: Request) => ({ bytes: request.content().length }))
  router.resource('photos', PhotoController)
  router.apiResource('api/tasks', TaskController)
  router.apiResource('api/notes', TaskController, { where: { note: /\d+/ } })
  router.fallback(() => Response.json({ fallback: true }, 404))
  return router
}

const json = (path: string, status: number, body: unknown, extra: Partial<Case> = {}): Case => ({ name: `GET ${path}`, request: { path }, status, json: body, ...extra })

const cases: Case[] = [
  {
    name: 'an absent optional parameter named like an Object.prototype key is absent',
    request: { path: '/api/animals' },
    status: 200,
    json: { param: null, params: [], input: null, hasToString: false, hasA: false, query: null, all: [] },
  },
  {
    name: 'a JSON body and a query give own keys only: input("constructor") and has("toString") see nothing',
    request: { method: 'POST', path: '/api/animals/cat?x=1', body: '{"a":1}', type: 'application/json' },
    status: 200,
    json: { param: 'cat', params: ['constructor'], input: 'cat' === 'cat' ? null : null, hasToString: false, hasA: true, query: null, all: ['x', 'a'] },
  },
  {
    name: 'router.url percent-encodes non-ASCII in the static part, so a redirect to it works',
    request: { path: '/to-unicode' },
    status: 302,
    headers: { location: '/foo/bar/%C3%A5%CE%B1%D1%84/%C3%BC%20x' },
  },
  json('/foo/bar/%C3%A5%CE%B1%D1%84/%C3%BC%20x', 200, { name: 'ü x' }),
  {
    name: 'an absolute-form target (RFC 9112 §3.2.2) reaches its route',
    request: { raw: 'GET http://127.0.0.1/users/1 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' },
    status: 200,
    json: { id: '1' },
  },
  {
    name: 'a fragment in the target is dropped by both servers alike',
    request: { raw: 'GET /users/1#frag HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' },
    status: 200,
    json: { id: '1' },
  },
  json('/hello%2Fworld', 404, { fallback: true }, { name: '%2F is never a separator: /hello%2Fworld does not reach /hello/world' }),
  json('/files/a%2Fb', 200, { name: 'a/b' }, { name: '%2F inside a parameter stays in its one segment' }),
  json('/assets/css/site/app.css', 200, { path: 'css/site/app.css' }, { name: 'a catch-all {path*} takes the rest of the path' }),
  json('/assets', 404, { fallback: true }, { name: 'a catch-all needs one segment at least; the fallback answers the rest' }),
  json('/nowhere/at/all', 404, { fallback: true }, { headers: { 'x-route': 'none' }, name: 'the fallback route answers an unknown path, inside global middleware' }),
  json('/posts/12', 200, { id: '12' }),
  json('/posts/abc', 404, { fallback: true }, { name: 'whereNumber refuses letters' }),
  json('/tags/fresh-news', 200, { slug: 'fresh-news' }),
  json('/tags/News1', 404, { fallback: true }, { name: 'where() matches the whole value' }),
  json('/users/7', 200, { id: '7' }, { headers: { 'x-route': 'users.show%20/users/%7Bid%7D' }, name: 'request.route() gives middleware the name and pattern' }),
  json('/photos', 200, { action: 'index' }, { headers: { 'x-route': 'photos.index%20/photos' } }),
  json('/photos/create', 200, { action: 'create' }),
  { name: 'POST /photos', request: { method: 'POST', path: '/photos' }, status: 200, json: { action: 'store' } },
  json('/photos/5', 200, { action: 'show', photo: '5' }, { headers: { 'x-route': 'photos.show%20/photos/%7Bphoto%7D' } }),
  json('/photos/5/edit', 200, { action: 'edit', photo: '5' }),
  { name: 'PUT /photos/5', request: { method: 'PUT', path: '/photos/5' }, status: 200, json: { action: 'update', method: 'PUT', photo: '5' } },
  { name: 'PATCH /photos/5', request: { method: 'PATCH', path: '/photos/5' }, status: 200, json: { action: 'update', method: 'PATCH', photo: '5' } },
  { name: 'DELETE /photos/5', request: { method: 'DELETE', path: '/photos/5' }, status: 200, json: { action: 'destroy', photo: '5' } },
  json('/api/tasks/create', 200, { action: 'show', task: 'create' }, { name: 'apiResource has no create form' }),
  json('/api/tasks/3', 200, { action: 'show', task: '3' }, { headers: { 'x-route': 'api.tasks.show%20/api/tasks/%7Btask%7D' } }),
  json('/api/notes/3', 200, { action: 'show', task: '3' }),
  json('/api/notes/abc', 404, { fallback: true }, { name: 'a resource constrained with where: { note: /\\d+/ } refuses letters' }),
  { name: 'a constrained resource refuses a bad key for every action', request: { method: 'DELETE', path: '/api/notes/1e3' }, status: 404, json: { fallback: true } },
]

/**
 * Uploads `size` bytes, chunked, the way many clients do (Python's requests, Java's HttpURLConnection): the
 * whole body first, 64 KiB at a time as the connection takes it, and only then the answer. A server that
 * closes the connection on its 413 while the body is still coming resets it, and such a client never gets
 * to read the 413. Resolves to the status the client read, or to the error it got instead.
 */
function uploadThenRead(url: string, size: number): Promise<number | string> {
  const socket = connect(Number(new URL(url).port), '127.0.0.1')
  const chunk = Buffer.alloc(64 * 1024, 'x')
  const frame = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')])
  return new Promise((resolve) => {
    let answer = ''
    let failure = 'no answer'
    socket.on('error', (error: NodeJS.ErrnoException) => (failure = error.code ?? error.message))
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3}) /.exec(answer)?.[1]) || failure))
    let sent = 0
    const next = () => {
      if (socket.destroyed) return
      if (sent >= size) return void socket.write('0\r\n\r\n', () => socket.on('data', (data: Buffer) => (answer += data.toString('latin1'))))
      sent += chunk.length
      // The next chunk once this one is written and the event loop has turned: a sender that is still
      // sending when the server answers, as over any real network (on loopback the kernel would take it all at once).
      socket.write(frame, () => setImmediate(next))
    }
    socket.write('POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n')
    next()
  })
}

describe('router URLs', () => {
  it('a catch-all keeps its slashes in router.url', () => {
    expect(buildRouter().url('assets', { path: 'css/a b.css' })).toBe('/assets/css/a%20b.css')
  })
})

describe.each(servers)('conformance over $name', ({ start }) => {
  let server: RunningServer
  beforeAll(async () => {
    server = await listenOn(start, buildRouter())
  })
  afterAll(() => server.close())

  it.each(cases)('$name', async ({ request, status, json: body, headers }) => {
    let got: { status: number; body: string; header: (name: string) => string | null }
    if ('raw' in request) {
      const raw = await sendRaw(server.url, request.raw)
      got = { status: raw.status, body: raw.body, header: (name) => new RegExp(`^${name}: (.*)$`, 'm').exec(raw.headers)?.[1] ?? null }
    } else {
      const res = await fetch(`${server.url}${request.path}`, {
        method: request.method ?? 'GET',
        body: request.body,
        headers: request.type ? { 'Content-Type': request.type } : {},
        redirect: 'manual',
      })
      got = { status: res.status, body: await res.text(), header: (name) => res.headers.get(name) }
    }
    expect(got.status).toBe(status)
    if (body !== undefined) expect(JSON.parse(got.body)).toEqual(body)
    for (const [name, value] of Object.entries(headers ?? {})) expect(got.header(name)).toBe(value)
  })

  it('a 2 MiB chunked upload over the 1 MiB limit receives its 413, every time', async () => {
    const statuses: (number | string)[] = []
    for (let i = 0; i < 20; i++) statuses.push(await uploadThenRead(server.url, 2 * 1024 * 1024))
    expect(statuses).toEqual(Array(20).fill(413))
  })
})
