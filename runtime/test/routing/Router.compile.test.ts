import { IncomingMessage } from 'node:http'
import { Socket } from 'node:net'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Container } from '../../src/container/Container.js'
import { HttpError } from '../../src/http/HttpError.js'
import { Request } from '../../src/http/Request.js'
import { Response } from '../../src/http/Response.js'
import { Router } from '../../src/routing/Router.js'

/** Dispatches in-process: a request built as Node's parser would, without a socket. */
async function call(router: Router, path: string, method = 'GET'): Promise<{ status: number; body: any }> {
  const message = new IncomingMessage(new Socket())
  message.method = method
  message.url = path
  const response = await router.dispatch(new Request(message))
  return { status: response.getStatusCode(), body: JSON.parse(response.getContent() || 'null') }
}

function logger() {
  return { error: vi.fn<(message: string, ...details: unknown[]) => void>() }
}

const savedEnv = { ...process.env }
afterEach(() => {
  process.env = { ...savedEnv }
  vi.restoreAllMocks()
})

describe('Router: compiled once, then frozen', () => {
  it('a duplicate route name throws at registration, naming both routes', () => {
    const router = new Router(new Container())
    router.get('/a', () => ({})).name('home')
    expect(() => router.get('/b', () => ({})).name('home')).toThrow('Route with duplicate name found: "home" already names GET /a')
    router.group({ as: 'admin.' }, () => router.get('/admin', () => ({})).name('home'))
    expect(router.url('admin.home')).toBe('/admin')
  })

  it('the first dispatch freezes the router: a route added afterwards throws', async () => {
    const router = new Router(new Container())
    router.get('/a', () => ({ a: 1 }))
    expect((await call(router, '/a')).body).toEqual({ a: 1 })
    expect(() => router.get('/b', () => ({}))).toThrow('The routes are frozen once the router serves')
    expect(() => router.use(async (_request, next) => next())).toThrow('frozen')
  })
})

describe('Router: errors go through one hook and one logger', () => {
  it('onError answers what it returns; undefined falls back to the default; nothing reaches console', async () => {
    const console_ = vi.spyOn(console, 'error')
    const log = logger()
    class PaymentDeclined extends Error {}
    const router = new Router(new Container(), { logger: log })
    router.get('/pay', () => {
      throw new PaymentDeclined('card declined')
    })
    router.get('/boom', () => {
      throw new Error('boom')
    })
    router.get('/gone', () => {
      throw new HttpError(410, 'Gone')
    })
    router.onError((error) => (error instanceof PaymentDeclined ? Response.error(error.message, 402) : undefined))
    expect(await call(router, '/pay')).toEqual({ status: 402, body: { error: 'card declined' } })
    expect(await call(router, '/gone')).toEqual({ status: 410, body: { error: 'Gone' } })
    expect(await call(router, '/boom')).toEqual({ status: 500, body: { error: 'Internal Server Error' } })
    expect(log.error).toHaveBeenCalledTimes(1)
    expect(log.error.mock.calls[0]![0]).toContain('GET /boom (route GET /boom) failed')
    expect(log.error.mock.calls[0]![2]).toEqual({ requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) })
    expect(console_).not.toHaveBeenCalled()
  })

  it('a hook that throws is logged, and the default answers', async () => {
    const log = logger()
    const router = new Router(new Container(), { logger: log })
    router.get('/x', () => {
      throw new HttpError(409, 'Conflict')
    })
    router.onError(() => {
      throw new Error('hook bug')
    })
    expect(await call(router, '/x')).toEqual({ status: 409, body: { error: 'Conflict' } })
    expect(log.error.mock.calls[0]![0]).toContain('onError hook failed')
    expect(log.error.mock.calls[0]![2]).toEqual({ requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) })
  })

  it.each(['NODE_ENV', 'APP_ENV'])('with %s=production no message, stack or path reaches a client, whatever APP_DEBUG or the debug option say', async (name) => {
    process.env[name] = 'production'
    process.env.APP_DEBUG = 'true'
    const router = new Router(new Container(), { debug: true, logger: logger() })
    router.get('/leak', () => {
      throw new Error(`connect ECONNREFUSED 127.0.0.1:55432 at ${import.meta.url}`)
    })
    expect(router.debug).toBe(false)
    const { status, body } = await call(router, '/leak')
    expect(status).toBe(500)
    expect(body).toEqual({ error: 'Internal Server Error' })
  })
})

describe('Router: handler timeout', () => {
  it('a handler that never answers gets 503 Service Unavailable after the timeout, logged with its route', async () => {
    const log = logger()
    const router = new Router(new Container(), { handlerTimeout: 50, logger: log })
    router.get('/hang/{id}', () => new Promise<Response>(() => undefined))
    expect(await call(router, '/hang/1')).toEqual({ status: 503, body: { error: 'Service Unavailable' } })
    expect(log.error.mock.calls[0]).toEqual(['[fw] GET /hang/1 (route GET /hang/{id}) did not answer within 50 ms: answered 503', { requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) }])
  })

  it('times every request in flight on its own: the hanging ones get 503, those that answer in time their answer', async () => {
    const log = logger()
    const router = new Router(new Container(), { handlerTimeout: 150, logger: log })
    router.get('/sleep/{ms}', (request) => new Promise<Response>((resolve) => setTimeout(() => resolve(Response.json({ slept: Number(request.param('ms')) })), Number(request.param('ms')))))
    router.get('/hang/{id}', () => new Promise<Response>(() => undefined))
    router.get('/fail', () => Promise.reject(new HttpError(409, 'Conflict')))
    const started = []
    for (let i = 0; i < 10; i++) {
      started.push(call(router, `/sleep/${i * 5}`), call(router, `/hang/${i}`), call(router, '/fail'))
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    const answers = await Promise.all(started)
    for (let i = 0; i < 10; i++) {
      expect(answers[i * 3]).toEqual({ status: 200, body: { slept: i * 5 } })
      expect(answers[i * 3 + 1]).toEqual({ status: 503, body: { error: 'Service Unavailable' } })
      expect(answers[i * 3 + 2]).toEqual({ status: 409, body: { error: 'Conflict' } })
    }
    // Logged in the order the requests started, each once.
    expect(log.error.mock.calls.map((args) => args[0])).toEqual(
      Array.from({ length: 10 }, (_, i) => `[fw] GET /hang/${i} (route GET /hang/{id}) did not answer within 150 ms: answered 503`),
    )
  })

  it('defaults to 30 s, reads HANDLER_TIMEOUT_MS, and 0 turns it off', () => {
    delete process.env.HANDLER_TIMEOUT_MS
    expect(new Router(new Container()).handlerTimeout).toBe(30_000)
    process.env.HANDLER_TIMEOUT_MS = '1500'
    expect(new Router(new Container()).handlerTimeout).toBe(1500)
    expect(new Router(new Container(), { handlerTimeout: 0 }).handlerTimeout).toBe(0)
    process.env.HANDLER_TIMEOUT_MS = 'soon'
    expect(() => new Router(new Container())).toThrow('Invalid handler timeout')
  })
})

describe('Router: controllers are built as decided at startup', () => {
  class Database {
    readonly id = Math.random()
  }
  class Clock {
    readonly id = Math.random()
  }

  class DbController {
    constructor(private readonly deps: { db: Database; request: Request }) {}
    show(request: Request): Response {
      return Response.json({ db: this.deps.db.id, sameRequest: this.deps.request === request })
    }
  }
  class ScopedController {
    constructor(private readonly deps: { clock: Clock }) {}
    show(): Response {
      return Response.json({ clock: this.deps.clock.id })
    }
  }
  class PlainController {
    show(): Response {
      return Response.json({ plain: true })
    }
  }

  it('a controller taking singletons ({ db }) creates no awilix scope per request; a scoped dependency still gets one', async () => {
    const container = new Container().singleton('db', Database).scoped('clock', Clock)
    const router = new Router(container)
    router.get('/db', [DbController, 'show'])
    router.get('/scoped', [ScopedController, 'show'])
    router.get('/plain', [PlainController, 'show'])
    const createScope = vi.spyOn(Container.prototype, 'createScope')

    const first = await call(router, '/db')
    const second = await call(router, '/db')
    expect(first.body.sameRequest).toBe(true)
    expect(first.body.db).toBe(second.body.db)
    expect((await call(router, '/plain')).body).toEqual({ plain: true })
    expect(createScope).not.toHaveBeenCalled()

    const a = await call(router, '/scoped')
    const b = await call(router, '/scoped')
    expect(a.body.clock).not.toBe(b.body.clock)
    expect(createScope).toHaveBeenCalledTimes(2)
  })
})
