import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { Container } from '../../src/container/Container.js'
import { Response } from '../../src/http/Response.js'
import { Router } from '../../src/routing/Router.js'
import { readJson, transports, type OpenApp } from '../support/servers.js'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

/** X-Request-Id is framework behaviour, as Rails' ActionDispatch::RequestId: on every answer, without LOG_REQUESTS. */
describe.each(transports)('X-Request-Id on $name', ({ open: openApp }) => {
  let app: OpenApp
  const log = { error: vi.fn() }

  beforeAll(async () => {
    delete process.env.LOG_REQUESTS
    const router = new Router(new Container(), { logger: log })
    router.get('/id', (request) => Response.json({ id: request.id(), again: request.id() }))
    router.post('/id', (request) => Response.json({ id: request.id() }))
    router.get('/boom', () => {
      throw new Error('the disk is full')
    })
    router.get('/own', () => Response.json({}).setHeader('X-Request-Id', 'set-by-the-handler'))
    app = await openApp(router, { bodyLimit: 16 })
  })
  afterAll(() => app.close())

  it('without a sent id: a new UUID per request, the one request.id() gives every time it is asked', async () => {
    const first = await app.fetch('/id')
    const second = await app.fetch('/id')
    const body = await readJson(first)
    expect(body.id).toMatch(UUID)
    expect([body.again, first.headers.get('x-request-id')]).toEqual([body.id, body.id])
    expect(second.headers.get('x-request-id')).toMatch(UUID)
    expect(second.headers.get('x-request-id')).not.toBe(body.id)
  })

  it("a safe id sent by a client or a proxy is kept, in request.id() and in the answer", async () => {
    const id = 'lb-1f2e.3d:4c@edge_01'
    const response = await app.fetch('/id', { headers: { 'X-Request-Id': id } })
    expect([response.headers.get('x-request-id'), (await readJson(response)).id]).toEqual([id, id])
  })

  it.each([
    ['a space', 'two words'],
    ['a comma (two ids joined)', 'a,b'],
    ['a quote', 'x"y'],
    ['129 characters', 'a'.repeat(129)],
  ])('an unsafe sent id (%s) is replaced by a new one', async (_case, sent) => {
    const response = await app.fetch('/id', { headers: { 'X-Request-Id': sent } })
    const id = response.headers.get('x-request-id')
    expect(id).toMatch(UUID)
    expect((await readJson(response)).id).toBe(id)
  })

  it('every answer of the router carries it: 404, 405, OPTIONS, 413, 500 and its log line', async () => {
    const answers = await Promise.all([
      app.fetch('/nowhere'),
      app.fetch('/id', { method: 'DELETE' }),
      app.fetch('/id', { method: 'OPTIONS' }),
      app.fetch('/id', { method: 'POST', body: 'x'.repeat(64) }),
      app.fetch('/boom', { headers: { 'X-Request-Id': 'boom-1' } }),
    ])
    expect(answers.map((response) => response.status)).toEqual([404, 405, 204, 413, 500])
    for (const response of answers.slice(0, 4)) expect(response.headers.get('x-request-id')).toMatch(UUID)
    expect(answers[4]!.headers.get('x-request-id')).toBe('boom-1')
    expect(log.error).toHaveBeenLastCalledWith('[fw] GET /boom (route GET /boom) failed:', expect.any(Error), { requestId: 'boom-1' })
  })

  it('a response that sets its own X-Request-Id keeps it', async () => {
    expect((await app.fetch('/own')).headers.get('x-request-id')).toBe('set-by-the-handler')
  })
})
