import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Container } from '../../src/container/Container.js'
import { defineContract } from '../../src/routing/RouteContract.js'
import { Router } from '../../src/routing/Router.js'
import { requestFor } from '../support/requestFor.js'

const Body = z.object({ title: z.string() })
const Out = z.object({ id: z.number() })

describe('route contracts', () => {
  it('are stored on the route, merged call by call, and a route without one has none', () => {
    const router = new Router(new Container())
    const plain = router.get('/', () => ({}))
    const route = router
      .post('/posts/{id}', () => ({}))
      .body(Body)
      .returns(201, Out, 'Created')
      .returns(404)
      .params({ id: z.string() })
      .summary('Store')
      .tags('Posts', 'Writing')
    expect(plain.declared).toBeUndefined()
    expect(route.declared).toMatchObject({ body: Body, summary: 'Store', tags: ['Posts', 'Writing'] })
    expect(route.declared!.responses).toEqual({ 201: { schema: Out, description: 'Created' }, 404: {} })
    expect(Object.keys(route.declared!.params!)).toEqual(['id'])
  })

  it('.contract() takes a shared contract over what was declared, keeping declared responses it does not name', () => {
    const router = new Router(new Container())
    const shared = defineContract({ query: Body, responses: { 200: { schema: Out } }, params: { id: z.string() } })
    const route = router.get('/posts/{id}', () => ({})).returns(404, undefined, 'Missing').contract(shared)
    expect(route.declared!.query).toBe(Body)
    expect(Object.keys(route.declared!.responses!)).toEqual(['200', '404'])
    expect(Object.keys(route.declared!.params!)).toEqual(['id'])
  })

  it('refuses a parameter the path does not have, a status that is not one, and any change once the router serves', async () => {
    const router = new Router(new Container())
    const route = router.get('/posts/{id}', () => ({}))
    expect(() => route.params({ slug: z.string() })).toThrow('Route "/posts/{id}" has no parameter {slug} to declare')
    expect(() => route.returns(99)).toThrow('Route "/posts/{id}": 99 is not an HTTP status')
    await router.dispatch(requestFor('/posts/1'))
    expect(() => route.body(Body)).toThrow('The routes are frozen once the router serves: add a contract on GET /posts/{id}')
  })

  it('checks parameter schemas that validate asynchronously too', async () => {
    const router = new Router(new Container())
    const digits = z.string().refine(async (value) => /^\d+$/.test(value))
    router.get('/posts/{id}', (_request, id) => ({ id })).params({ id: digits })
    expect((await router.dispatch(requestFor('/posts/12'))).getStatusCode()).toBe(200)
    expect((await router.dispatch(requestFor('/posts/x'))).getStatusCode()).toBe(404)
  })
})
