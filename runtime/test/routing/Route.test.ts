import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { Container } from '../../src/container/Container.js'
import { Route } from '../../src/routing/Route.js'
import { Router } from '../../src/routing/Router.js'

const routesFile = fileURLToPath(new URL('../fixtures/app/routes/web.ts', import.meta.url))
const listed = () => Route.getRoutes().map((route) => `${route.methods.join('|')} ${route.pattern}`)

// One file, in order: the facade's "last router that loaded routes" is module state.
describe('Route.getRoutes', () => {
  it('is empty before any router has loaded a routes file', () => {
    expect(Route.getRoutes()).toEqual([])
  })

  it("lists the routes of the router that loaded routes/web.ts, after loading, as a handler would see them", async () => {
    const router = new Router(new Container())
    await router.loadRoutesFromFile(routesFile)
    router.get('/added-later', () => ({}))

    expect(Route.current()).toBeUndefined()
    expect(listed()).toEqual(['GET /', 'GET /users/{id}', 'GET /users/{user}/posts/{post}', 'GET /api/hello', 'GET /added-later'])
  })

  it('follows the router that loaded a routes file last', async () => {
    const router = new Router(new Container())
    await router.loadRoutesFromFile(routesFile)

    expect(listed()).not.toContain('GET /added-later')
    expect(Route.getRoutes()).toBe(router.getRoutes())
  })
})

describe('router.loadRoutes', () => {
  it('registers what an import made by the caller registers through Route', async () => {
    const router = new Router(new Container())
    await router.loadRoutes(async () => {
      Route.get('/from-a-loader', () => ({ ok: true }))
    })
    expect(router.getRoutes().map((route) => route.pattern)).toEqual(['/from-a-loader'])
    expect(Route.current()).toBeUndefined()
    await expect(router.loadRoutes(() => Promise.reject(new Error('broken routes')))).rejects.toThrow('broken routes')
    expect(Route.current()).toBeUndefined()
  })
})
