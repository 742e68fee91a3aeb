import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Container } from '../../src/container/Container.js'
import { HttpError } from '../../src/http/HttpError.js'
import { Response } from '../../src/http/Response.js'
import { Router } from '../../src/routing/Router.js'
import type { RunningServer } from '../../src/server/listen.js'
import { startSession } from '../../src/session/startSession.js'
import { verifyCsrfToken } from '../../src/session/verifyCsrfToken.js'
import { serveStatic } from '../../src/static/serveStatic.js'
import { testClient } from '../../src/testing/TestClient.js'
import { listenOn, servers } from '../support/servers.js'

const folder = mkdtempSync(join(tmpdir(), 'fw-test-client-'))
writeFileSync(join(folder, 'robots.txt'), 'User-agent: *\n')
afterAll(() => rmSync(folder, { recursive: true, force: true }))

function app(): Router {
  process.env.APP_KEY = 'base64:' + Buffer.alloc(32, 3).toString('base64')
  const router = new Router(new Container())
  router.use(serveStatic(folder))
  router.aliasMiddleware('session', startSession())
  router.aliasMiddleware('csrf', verifyCsrfToken())
  router.get('/hello', (request) => Response.json({ message: `Hello, ${request.get('name', 'World')}!` }))
  router.post('/users', (request) => Response.json({ user: request.all(), agent: request.header('x-agent') }, 201))
  router.get('/tasks/{id}', (_request, id) => {
    if (id !== '1') throw new HttpError(404, 'Task not found')
    return { task: { id: 1 } }
  })
  router.get('/counter', (request) => {
    const count = request.session.get<number>('count', 0) + 1
    request.session.put('count', count)
    return Response.json({ count, token: request.csrfToken() })
  }).middleware('session')
  router.post('/form', (request) => Response.json({ name: request.input('name') })).middleware('session', 'csrf')
  return router
}

/** Cases whose answers must be the same in process and over a socket. */
const cases: [string, string, { json?: unknown; body?: string; headers?: Record<string, string> }][] = [
  ['GET', '/hello?name=Ada', {}],
  ['POST', '/users', { json: { name: 'Ada' }, headers: { 'X-Agent': 'tests' } }],
  ['POST', '/users', { body: '{"broken', headers: { 'Content-Type': 'application/json' } }],
  ['GET', '/tasks/1', {}],
  ['GET', '/tasks/2', {}],
  ['DELETE', '/hello', {}],
  ['GET', '/nowhere', {}],
  ['GET', '/robots.txt', {}],
]

describe('testClient', () => {
  it('keeps the cookies the application sets, so a session lasts across requests', async () => {
    const client = testClient(app())
    expect((await (await client.get('/counter')).json()).count).toBe(1)
    const second = (await (await client.get('/counter')).json()) as { count: number; token: string }
    expect(second.count).toBe(2)
    expect(client.cookies.has('fw_session')).toBe(true)
    const posted = await client.fetch('/form', { method: 'POST', body: new URLSearchParams({ name: 'Ada', _token: second.token }) })
    expect([posted.status, await posted.json()]).toEqual([200, { name: 'Ada' }])
    const forged = await testClient(app()).fetch('/form', { method: 'POST', body: new URLSearchParams({ name: 'Eve' }) })
    expect(forged.status).toBe(419)
  })

  it('sends JSON with post, and any body fetch takes (FormData with its boundary)', async () => {
    const client = testClient(app())
    const created = await client.post('/users', { name: 'Ada' }, { headers: { 'X-Agent': 'tests' } })
    expect([created.status, await created.json()]).toEqual([201, { user: { name: 'Ada' }, agent: 'tests' }])
    const form = new FormData()
    form.append('name', 'Grace')
    expect(await (await client.fetch('/users', { method: 'POST', body: form })).json()).toEqual({ user: { name: 'Grace' }, agent: null })
    const head = await client.fetch('/robots.txt', { method: 'HEAD' })
    expect([head.status, head.headers.get('content-type'), await head.text()]).toEqual([200, 'text/plain; charset=utf-8', ''])
  })

  describe.each(servers)('answers as $name does over a socket', ({ start }) => {
    let server: RunningServer
    beforeAll(async () => {
      server = await listenOn(start, app())
    })
    afterAll(() => server.close())

    it.each(cases)('%s %s', async (method, path, options) => {
      const headers = { ...(options.json !== undefined ? { 'Content-Type': 'application/json' } : {}), ...options.headers }
      const body = options.json !== undefined ? JSON.stringify(options.json) : options.body
      const inProcess = await testClient(app()).fetch(path, { method, headers, body })
      const overHttp = await fetch(server.url + path, { method, headers, body })
      expect([inProcess.status, inProcess.headers.get('content-type'), await inProcess.text()]).toEqual([
        overHttp.status,
        overHttp.headers.get('content-type'),
        await overHttp.text(),
      ])
    })
  })
})
