import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { Container } from '../../src/container/Container.js'
import { Route } from '../../src/routing/Route.js'
import { Router } from '../../src/routing/Router.js'

const routesFile = fileURLToPath(new URL('../fixtures/app/routes/web.ts', import.meta.url))
const listed = () => Route.getRoutes().map((route) => `${route.methods.join('|')} ${route.pattern}`)

// One file, in order: the facade is bound once, to the first router that loads routes.
describe('Route.getRoutes', () => {
  it('is empty before any router has loaded a routes file', () => {
    expect(Route.getRoutes()).toEqual([])
  })

  let application: Router
  it("lists the routes of the router that loaded routes/web.ts, after loading, as a handler would see them", async () => {
    application = new Router(new Container())
    await application.loadRoutesFromFile(routesFile)
    application.get('/added-later', () => ({}))

    expect(listed()).toEqual(['GET /', 'GET /users/{id}', 'GET /users/{user}/posts/{post}', 'GET /api/hello', 'GET /added-later'])
    expect(Route.getRoutes()).toBe(application.getRoutes())
  })

  it('stays bound to the application: a second router loading routes is refused, saying why', async () => {
    const other = new Router(new Container())
    await expect(other.loadRoutesFromFile(routesFile)).rejects.toThrow("The Route facade is bound to the application's router already")
    expect(Route.getRoutes()).toBe(application.getRoutes())
  })
})

