import { describe, expect, it } from 'vitest'
import { Container } from '../../src/container/Container.js'
import { documented } from '../../src/http/middlewareDocs.js'
import { mergeResponses, middlewareAdditions } from '../../src/openapi/middlewareAdditions.js'
import { Router } from '../../src/routing/Router.js'

const pass = () => documented((_request, next) => next(), {})
const apiKey = documented((_request, next) => next(), {
  responses: { 401: { description: 'No valid X-API-Key header' } },
  security: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
})
const bearer = documented((_request, next) => next(), {
  responses: { 401: { description: 'No valid token' }, 302: { description: 'To sign in', body: null, pagesOnly: true } },
  security: { bearerAuth: { type: 'http', scheme: 'bearer' }, sessionCookie: { type: 'apiKey', in: 'cookie', name: 'fw_session' } },
})
const teamOnly = documented((_request, next) => next(), {
  responses: { 403: { description: 'Not in the team', body: { type: 'object', properties: { team: { type: 'string' } } } } },
  security: { bearerAuth: { type: 'http', scheme: 'bearer' } },
  methods: ['DELETE'],
})

describe('middlewareAdditions', () => {
  const router = new Router(new Container())
  const both = router.get('/both', () => ({})).middleware(apiKey, bearer, pass())
  const team = router.match(['GET', 'DELETE'], '/team', () => ({})).middleware(bearer, teamOnly)
  const plain = router.get('/plain', () => ({}))
  const uncompiled = new Router(new Container()).get('/later', () => ({})).middleware(apiKey)
  router.commit()

  it('needs every middleware satisfied: one scheme of each, and merges two descriptions of one status', () => {
    const additions = middlewareAdditions(both, 'GET', false)
    expect(additions.security).toEqual([{ apiKey: [], bearerAuth: [] }, { apiKey: [], sessionCookie: [] }])
    expect(Object.keys(additions.schemes)).toEqual(['apiKey', 'bearerAuth', 'sessionCookie'])
    expect(additions.responses).toEqual({
      401: { description: 'No valid X-API-Key header; or: No valid token', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
    })
  })

  it('leaves out the requirements another one makes needless, and a declaration for other methods', () => {
    expect(middlewareAdditions(team, 'DELETE', false).security).toEqual([{ bearerAuth: [] }])
    expect(middlewareAdditions(team, 'DELETE', false).responses['403']).toEqual({
      description: 'Not in the team',
      content: { 'application/json': { schema: { type: 'object', properties: { team: { type: 'string' } } } } },
    })
    expect(middlewareAdditions(team, 'GET', false).security).toEqual([{ bearerAuth: [] }, { sessionCookie: [] }])
    expect(middlewareAdditions(team, 'GET', false).responses['403']).toBeUndefined()
  })

  it("adds a page's response only to a page, without a body when it says null", () => {
    expect(middlewareAdditions(team, 'GET', false).responses['302']).toBeUndefined()
    expect(middlewareAdditions(team, 'GET', true).responses['302']).toEqual({ description: 'To sign in' })
  })

  it('adds nothing where nothing declares, and reads the functions a route names before the router compiles', () => {
    expect(middlewareAdditions(plain, 'GET', false)).toEqual({ responses: {}, security: undefined, schemes: {} })
    expect(uncompiled.layers).toBeUndefined()
    expect(middlewareAdditions(uncompiled, 'GET', false).security).toEqual([{ apiKey: [] }])
  })

  it('merges two bodies of one status into anyOf, so that a client expects either', () => {
    const validation = { description: 'Invalid', content: { 'application/json': { schema: { $ref: '#/components/schemas/ValidationError' } } } }
    const error = { description: 'Invalid email format', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } }
    expect(mergeResponses(validation, error)).toEqual({
      description: 'Invalid; or: Invalid email format',
      content: { 'application/json': { schema: { anyOf: [{ $ref: '#/components/schemas/ValidationError' }, { $ref: '#/components/schemas/Error' }] } } },
    })
    expect(mergeResponses(error, { description: 'Invalid email format' })).toEqual(error)
  })
})
