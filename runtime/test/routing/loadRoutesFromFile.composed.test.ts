import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Container } from '../../src/container/Container.js'
import { Router } from '../../src/routing/Router.js'
import type { RunningServer } from '../../src/server/listen.js'
import { listenOn, readJson, servers } from '../support/servers.js'

// Its own file: the Route facade is bound to the one router that loads routes in a process.
let router: Router
beforeAll(async () => {
  router = new Router(new Container())
  await router.loadRoutesFromFile(new URL('../fixtures/composed/routes/web.ts', import.meta.url))
})

describe.each(servers)('a routes file that imports another, over $name', ({ start }) => {
  let server: RunningServer
  beforeAll(async () => {
    server = await listenOn(start, router)
  })
  afterAll(() => server.close())

  it("registers both files' routes on the application router (import './admin.js')", async () => {
    expect(router.url('home')).toBe('/')
    expect(router.url('admin.home')).toBe('/admin')
    expect(await readJson(await fetch(`${server.url}/`))).toEqual({ from: 'web.ts' })
    expect(await readJson(await fetch(`${server.url}/admin`))).toEqual({ from: 'admin.ts' })
  })
})
