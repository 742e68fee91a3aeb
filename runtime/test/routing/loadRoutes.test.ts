// Its own file: the Route facade binds to one router per process (module), as an application has one.
import { describe, expect, it } from 'vitest'
import { Container } from '../../src/container/Container.js'
import { Route } from '../../src/routing/Route.js'
import { Router } from '../../src/routing/Router.js'

describe('router.loadRoutes', () => {
  it('registers what an import made by the caller registers through Route, then compiles the routes', async () => {
    const router = new Router(new Container())
    await router.loadRoutes(async () => {
      Route.get('/from-a-loader', () => ({ ok: true }))
    })
    expect(router.getRoutes().map((route) => route.pattern)).toEqual(['/from-a-loader'])
    await expect(router.loadRoutes(() => Promise.reject(new Error('broken routes')))).rejects.toThrow('broken routes')
    await expect(
      router.loadRoutes(async () => {
        Route.get('/guarded', () => ({})).middleware('no-such-alias')
      }),
    ).rejects.toThrow('no-such-alias')
  })
})
