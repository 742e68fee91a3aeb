import { afterEach, describe, expect, it } from 'vitest'
import { Container } from '../../src/container/Container.js'
import { Router } from '../../src/routing/Router.js'
import { requestFor } from '../support/requestFor.js'

const saved = { NODE_ENV: process.env.NODE_ENV, OPENAPI: process.env.OPENAPI, APP_URL: process.env.APP_URL }

afterEach(() => {
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key]
    else process.env[key] = value
  }
})

async function get(router: Router, path: string, method = 'GET') {
  const response = await router.dispatch(requestFor(path, method))
  return { status: response.getStatusCode(), type: response.getHeader('Content-Type'), body: response.getContent() }
}

function appRouter(): Router {
  const router = new Router(new Container())
  router.get('/users/{id}', () => ({ id: 1 })).name('users.show')
  return router
}

describe('GET /openapi.json', () => {
  it('serves the document outside production, with the routes and the package.json info', async () => {
    const { status, type, body } = await get(appRouter(), '/openapi.json')
    expect(status).toBe(200)
    expect(type).toBe('application/json; charset=utf-8')
    const document = JSON.parse(body)
    expect(document.openapi).toBe('3.1.0')
    expect(document.info.title).toBeTypeOf('string')
    expect(document.paths['/users/{id}'].get.operationId).toBe('users.show')
  })

  it("has the application's address, APP_URL, as its server", async () => {
    process.env.APP_URL = 'https://shop.example.com/'
    expect(JSON.parse((await get(appRouter(), '/openapi.json')).body).servers).toEqual([{ url: 'https://shop.example.com' }])
    delete process.env.APP_URL
    expect(JSON.parse((await get(appRouter(), '/openapi.json')).body).servers).toBeUndefined()
  })

  it('answers HEAD as GET, and leaves other methods to the 404', async () => {
    expect((await get(appRouter(), '/openapi.json', 'HEAD')).status).toBe(200)
    expect((await get(appRouter(), '/openapi.json', 'POST')).status).toBe(404)
  })

  it('is a 404 in production, like any unknown path', async () => {
    process.env.NODE_ENV = 'production'
    const { status, body } = await get(appRouter(), '/openapi.json')
    expect(status).toBe(404)
    expect(JSON.parse(body)).toEqual({ error: 'Not Found' })
  })

  it('is served in production with OPENAPI=true', async () => {
    process.env.NODE_ENV = 'production'
    process.env.OPENAPI = 'true'
    expect((await get(appRouter(), '/openapi.json')).status).toBe(200)
  })

  it('leaves the path to a route of the application that takes it', async () => {
    const router = appRouter()
    router.get('/openapi.json', () => ({ mine: true }))
    expect(JSON.parse((await get(router, '/openapi.json')).body)).toEqual({ mine: true })
  })
})
