import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Container } from '../../src/container/Container.js'
import { Router } from '../../src/routing/Router.js'
import type { RunningServer } from '../../src/server/listen.js'
import { GreetingService } from '../fixtures/app/App/GreetingService.js'
import { listenOn, readJson, servers } from '../support/servers.js'

const routesFile = new URL('../fixtures/app/routes/web.ts', import.meta.url)

// In this order: the first router to serve is frozen. The Route facade is bound once, to the application's router: one router loads the file for both servers.
let router: Router
beforeAll(async () => {
  const container = new Container()
  container.singleton('greeter', GreetingService)
  router = new Router(container)
  await router.loadRoutesFromFile(routesFile)
})

describe('loadRoutesFromFile', () => {
  it('a missing file is a clear error', async () => {
    await expect(router.loadRoutesFromFile('/nonexistent/routes/web.ts')).rejects.toThrow('Routes file not found: /nonexistent/routes/web.ts')
  })

  it('compiles what it loaded (and commit() does too): an unknown middleware alias fails at startup, naming it', () => {
    const other = new Router(new Container())
    other.get('/guarded', () => ({})).middleware('auht')
    expect(() => other.commit()).toThrow('Middleware "auht" is not registered')
  })
})

describe.each(servers)('loadRoutesFromFile over $name', ({ start }) => {
  let server: RunningServer
  beforeAll(async () => {
    server = await listenOn(start, router)
  })
  afterAll(() => server.close())

  it('imports routes/web.ts and its Route.* calls register on the application router', async () => {
    expect(router.getRoutes().map((route) => route.pattern)).toEqual(['/', '/users/{id}', '/users/{user}/posts/{post}', '/api/hello'])
    expect(await readJson(await fetch(`${server.url}/`))).toEqual({ name: 'Fw', status: 'running', message: 'from a routes file' })
    expect(await readJson(await fetch(`${server.url}/users/9/posts/3`))).toEqual({ userId: '9', postId: '3' })
    expect(await readJson(await fetch(`${server.url}/api/hello`))).toEqual({ message: 'Hello from a group' })
    expect(router.url('users.show', { id: 9 })).toBe('/users/9')
  })
})
