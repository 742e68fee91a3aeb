import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Container } from '../../src/container/Container.js'
import { HttpError } from '../../src/http/HttpError.js'
import type { Middleware } from '../../src/http/Middleware.js'
import { Router } from '../../src/routing/Router.js'
import type { RunningServer } from '../../src/server/listen.js'
import { listenOn, servers } from '../support/servers.js'

/** Lets through the requests whose X-Role is one of the roles. */
const requireRole = (...roles: string[]): Middleware => (request, next) => {
  if (!roles.includes(request.header('x-role') ?? '')) throw new HttpError(403, `Only ${roles.join(' or ')}`)
  return next()
}

describe.each(servers)('middleware aliases with arguments on $name', ({ start }) => {
  let server: RunningServer
  const made: string[][] = []
  beforeAll(async () => {
    const router = new Router(new Container())
    router.aliasMiddlewareFactory('role', (...roles) => {
      made.push(roles)
      return requireRole(...roles)
    })
    router.get('/admin', () => ({ ok: true })).middleware('role:admin,editor')
    router.get('/again', () => ({ ok: true })).middleware('role:admin,editor')
    router.get('/owner', () => ({ ok: true })).middleware('role:owner')
    server = await listenOn(start, router)
  })
  afterAll(() => server?.close())

  const get = async (path: string, role: string) => {
    const response = await fetch(`${server.url}${path}`, { headers: { 'x-role': role } })
    return { status: response.status, body: await response.json() }
  }

  it('gives each reference the middleware its arguments make, made once per reference', async () => {
    expect(await get('/admin', 'editor')).toEqual({ status: 200, body: { ok: true } })
    expect(await get('/again', 'admin')).toEqual({ status: 200, body: { ok: true } })
    expect(await get('/admin', 'owner')).toEqual({ status: 403, body: { error: 'Only admin or editor' } })
    expect(await get('/owner', 'owner')).toEqual({ status: 200, body: { ok: true } })
    expect(made).toEqual([['admin', 'editor'], ['owner']])
  })
})

describe('aliasMiddlewareFactory', () => {
  it('refuses a name with a colon, and an unknown alias still names itself', () => {
    const router = new Router(new Container())
    expect(() => router.aliasMiddlewareFactory('role:x', () => (_request, next) => next())).toThrow('Middleware alias "role:x": a name with ":"')
    router.get('/x', () => ({})).middleware('nope:1,2')
    expect(() => router.commit()).toThrow('Middleware "nope:1,2" is not registered; use router.aliasMiddleware("nope:1,2", fn)')
  })
})
