import { validate as validateOpenApi } from '@readme/openapi-parser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import * as v from 'valibot'
import { auth } from '../../src/auth/auth.js'
import { Container } from '../../src/container/Container.js'
import { documented } from '../../src/http/middlewareDocs.js'
import type { Request } from '../../src/http/Request.js'
import { Response } from '../../src/http/Response.js'
import { openApiDocument } from '../../src/openapi/openApiDocument.js'
import { defineContract } from '../../src/routing/RouteContract.js'
import { Router } from '../../src/routing/Router.js'
import { serveNode } from '../../src/server/serveNode.js'
import type { RunningServer } from '../../src/server/listen.js'
import { resolve, sampleOf, wrongTypeFor } from '../support/jsonSchemaSample.js'
import { listenOn, readJson } from '../support/servers.js'

const CreatePost = z.object({
  title: z.string().min(3),
  body: z.string(),
  rating: z.number().int().min(1).max(5),
  draft: z.boolean().optional(),
  author: z.object({ email: z.email(), name: z.string() }),
})
const PostOut = z.object({ id: z.number().int(), title: z.string() })

/** Shared between the route and the controller, which validates with its body and so is typed by it. */
const updatePost = defineContract({
  body: z.object({ title: z.string(), tags: z.array(z.string()).min(1) }),
  params: { id: z.string().regex(/^\d+$/) },
  responses: { 200: { schema: PostOut, description: 'The post, changed' } },
  summary: 'Change a post',
})

interface Category {
  name: string
  children: Category[]
}
const CategorySchema: z.ZodType<Category> = z.object({ name: z.string(), get children() { return z.array(CategorySchema) } })

class PostController {
  index(request: Request) {
    return request.validate('query').then((query) => ({ query }))
  }

  show(_request: Request, id: string) {
    return { id: Number(id), title: 'Hello' }
  }

  async store(request: Request) {
    const post = await request.validate<z.infer<typeof CreatePost>>()
    return Response.json({ id: 1, title: post.title }, 201)
  }

  async update(request: Request, id: string) {
    const { title } = await request.validate(updatePost.body)
    return { id: Number(id), title }
  }

  destroy() {
    return new Response('', 204)
  }
}

function routes(router: Router): void {
  router.get('/', () => ({ status: 'running' }))
  router.get('/posts', [PostController, 'index']).query(z.object({ page: z.coerce.number().int().min(1).optional(), q: z.string() }))
  router.post('/posts', [PostController, 'store']).name('posts.store').body(CreatePost).returns(201, PostOut, 'The new post')
  router.get('/posts/{id}', [PostController, 'show']).params({ id: z.string().regex(/^\d+$/) }).returns(200, PostOut)
  router.put('/posts/{id}', [PostController, 'update']).contract(updatePost)
  router.delete('/posts/{id}', [PostController, 'destroy']).middleware(auth, 'can:delete,post')
  router.post('/events', () => ({ ok: true })).body(z.object({ at: z.date() })).tags('Events')
  router.post('/categories', async (request) => ({ category: await request.validate() })).body(CategorySchema)
  router.post('/newsletter', async (request) => ({ email: (await request.validate<{ email: string }>()).email })).body(v.object({ email: v.string() }))
  router.get('/files/{path*}', () => ({}))
  router.get('/about', () => Response.html('<h1>About</h1>')).returns(200, 'text/html', 'The about page')
  router.get('/archive/{year?}', () => ({}))
  router.any('/ping', () => ({ pong: true })).name('ping')
  // Answered, and left out of the document: a webhook, and an admin panel's pages.
  router.post('/webhooks/mail', () => ({ received: true })).excludeFromDocs()
  router.group({ prefix: '/admin', excludeFromDocs: true }, () => {
    router.get('/', () => Response.html('<h1>Admin</h1>'))
    router.group({ prefix: '/users' }, () => router.get('/{id}', (_request, id) => ({ id })))
  })
  router.aliasMiddleware('can:delete,post', (_request, next) => next())
}

function makeRouter(): Router {
  const router = new Router(new Container())
  routes(router)
  return router
}

const info = { title: 'fw-test-app', version: '1.2.3' }

describe('openApiDocument', () => {
  const document = openApiDocument(makeRouter().commit().getRoutes(), info) as any

  it('is a valid OpenAPI 3.1.0 document, as @readme/openapi-parser judges it', async () => {
    const result = await validateOpenApi(structuredClone(document))
    expect(result.valid ? [] : result.errors).toEqual([])
    expect(document.openapi).toBe('3.1.0')
    expect(document.info).toEqual(info)
    // The validator is a real one: a path parameter missing from the operation makes a document invalid.
    const broken = structuredClone(document)
    broken.paths['/posts/{id}'].get.parameters = []
    expect((await validateOpenApi(broken)).valid).toBe(false)
  })

  it('has every route, with its parameters as {name} and required', () => {
    expect(Object.keys(document.paths)).toEqual([
      '/', '/posts', '/posts/{id}', '/events', '/categories', '/newsletter', '/files/{path}', '/about', '/archive/{year}', '/archive', '/ping',
    ])
    for (const [path, operations] of Object.entries<any>(document.paths)) {
      const names = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1])
      for (const operation of Object.values<any>(operations)) {
        const inPath = (operation.parameters ?? []).filter((parameter: any) => parameter.in === 'path')
        expect(inPath.map((parameter: any) => parameter.name)).toEqual(names)
        for (const parameter of inPath) expect(parameter.required).toBe(true)
      }
    }
    expect(Object.keys(document.paths['/ping'])).toEqual(['get', 'post', 'put', 'patch', 'delete', 'options'])
  })

  it('gives every operation a unique operationId: the route name, else the controller and action, else method and path', () => {
    const ids = Object.values<any>(document.paths).flatMap((operations) => Object.values<any>(operations).map((operation) => operation.operationId))
    expect(new Set(ids).size).toBe(ids.length)
    expect(document.paths['/posts'].post.operationId).toBe('posts.store')
    expect(document.paths['/posts'].get.operationId).toBe('PostController.index')
    expect(document.paths['/'].get.operationId).toBe('get_root')
    expect(document.paths['/ping'].patch.operationId).toBe('ping.patch')
  })

  it('describes bodies, queries, declared responses and the 422 shape where a route validates', () => {
    const store = document.paths['/posts'].post
    expect(store.requestBody.content['application/json'].schema.required).toEqual(['title', 'body', 'rating', 'author'])
    expect(store.responses['201'].description).toBe('The new post')
    expect(store.responses['201'].content['application/json'].schema.properties.id).toMatchObject({ type: 'integer' })
    expect(store.responses['422'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ValidationError' })
    expect(document.components.schemas.ValidationError.required).toEqual(['error', 'errors'])

    const index = document.paths['/posts'].get
    expect(index.parameters.map((parameter: any) => [parameter.name, parameter.in, parameter.required])).toEqual([
      ['page', 'query', false],
      ['q', 'query', true],
    ])
    expect(index.responses['422']).toBeDefined()

    const update = document.paths['/posts/{id}'].put
    expect(update.summary).toBe('Change a post')
    expect(update.parameters[0].schema).toMatchObject({ type: 'string', pattern: '^\\d+$' })
    expect(update.responses['404']).toBeDefined()
    expect(document.paths['/'].get.responses).toEqual({
      '200': { description: 'OK' },
      '400': { $ref: '#/components/responses/BadRequest' },
      '413': { $ref: '#/components/responses/PayloadTooLarge' },
    })
    expect(document.paths['/'].get.tags).toEqual(['default'])
    expect(update.tags).toEqual(['Post'])
    expect(document.paths['/events'].post.tags).toEqual(['Events'])
  })

  it('documents a page by its media type, and a response in several forms by each', () => {
    expect(document.paths['/about'].get.responses['200']).toEqual({
      description: 'The about page',
      content: { 'text/html': { schema: { type: 'string' } } },
    })
    expect(() => makeRouter().get('/x', () => ({})).returns(200, 'html')).toThrow('"html" is not a media type')
    const router = new Router(new Container())
    router.get('/report', () => ({ id: 1, title: 'x' })).returns(200, [PostOut, 'text/csv', 'text/html'], 'JSON, CSV or a page')
    const report = (openApiDocument(router.commit().getRoutes(), info) as any).paths['/report'].get.responses['200']
    expect(Object.keys(report.content)).toEqual(['application/json', 'text/csv', 'text/html'])
    expect(report.content['text/csv']).toEqual({ schema: { type: 'string' } })
    expect(() => new Router(new Container()).get('/two', () => ({})).returns(200, [PostOut, PostOut])).toThrow('200 has one JSON schema')
  })

  it('marks routes behind auth with its 401 and the bearer and cookie schemes; a can… alias adds nothing it does not declare', () => {
    const destroy = document.paths['/posts/{id}'].delete
    expect(destroy.security).toEqual([{ bearerAuth: [] }, { sessionCookie: [] }])
    expect(Object.keys(destroy.responses)).toEqual(['200', '400', '401', '413'])
    expect(destroy.responses['401']).toEqual({
      description: 'Not signed in: no valid bearer token or session cookie',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    })
    expect(Object.keys(document.components.securitySchemes)).toEqual(['bearerAuth', 'sessionCookie'])
    expect(document.paths['/posts'].post.security).toBeUndefined()
    expect(document.security).toEqual([])
  })

  it('documents a schema with no JSON Schema as not convertible instead of failing, and a recursive one by $ref', () => {
    expect(document.paths['/events'].post.requestBody.content['application/json'].schema['x-fw-schema']).toBe('not convertible')
    const category = document.paths['/categories'].post.requestBody.content['application/json'].schema
    expect(category).toEqual({ $ref: '#/components/schemas/post_categories_Body' })
    expect(resolve(category.$ref, document).properties.children.items).toEqual({ $ref: '#/components/schemas/post_categories_Body' })
  })
})

describe('openApiDocument of route patterns OpenAPI has no words for', () => {
  const router = new Router(new Container())
  router.get('/images/{id}.{ext}', () => ({})).name('images.show').params({ ext: z.enum(['jpg', 'png']) })
  router.get('/files/{name}-v{version}', [PostController, 'show'])
  router.get('/users/{id?}', () => ({})).name('users.show')
  router.get('/reports/{year?}/{month?}', [PostController, 'index'])
  router.get('/archive/{year?}', () => ({}))
  router.get('/', () => ({})).name('home')
  router.domain('{account}.example.com').group(() => {
    router.get('/members/{id}', () => ({})).name('tenant.member')
    router.put('/members/{id}', () => ({})).name('tenant.member.update')
    router.get('/', () => ({})).name('tenant.home')
    router.delete('/archive', () => ({})).name('tenant.archive.clear')
  })
  router.group({ domain: '{account}.{region}.example.com' }, () => {
    router.get('/regional/{page?}', () => ({})).name('regional').defaults('page', 1)
  })
  router.group({ domain: 'admin.example.com' }, () => {
    router.get('/admin', () => ({})).name('admin')
  })
  const document = openApiDocument(router.commit().getRoutes(), info) as any

  it('is a valid OpenAPI 3.1.0 document, as @readme/openapi-parser judges it', async () => {
    const result = await validateOpenApi(structuredClone(document))
    expect(result.valid ? [] : result.errors).toEqual([])
  })

  it('templates a segment of text and parameters as it is, each parameter required', () => {
    const show = document.paths['/images/{id}.{ext}'].get
    expect(show.parameters.map((parameter: any) => [parameter.name, parameter.in, parameter.required])).toEqual([
      ['id', 'path', true],
      ['ext', 'path', true],
    ])
    expect(show.parameters[1].schema).toMatchObject({ enum: ['jpg', 'png'] })
    expect(document.paths['/files/{name}-v{version}'].get.parameters.map((parameter: any) => parameter.name)).toEqual(['name', 'version'])
    expect(document.paths['/files/{name}-v{version}'].get.tags).toEqual(['Post'])
  })

  it('makes a path of each number of optional parameters present, with operationIds told apart by what they leave out', () => {
    expect(Object.keys(document.paths).filter((path) => /^\/(users|reports|archive)/.test(path))).toEqual([
      '/users/{id}', '/users', '/reports/{year}/{month}', '/reports/{year}', '/reports', '/archive/{year}', '/archive',
    ])
    expect(document.paths['/users/{id}'].get.operationId).toBe('users.show')
    expect(document.paths['/users'].get.operationId).toBe('users.show_without_id')
    expect(document.paths['/users'].get.parameters).toBeUndefined()
    expect(document.paths['/reports/{year}/{month}'].get.operationId).toBe('PostController.index')
    expect(document.paths['/reports/{year}'].get.operationId).toBe('PostController.index_without_month')
    expect(document.paths['/reports'].get.operationId).toBe('PostController.index_without_year_month')
    expect(document.paths['/archive/{year}'].get.operationId).toBe('get_archive_year')
    expect(document.paths['/archive'].get.operationId).toBe('get_archive')
  })

  it('gives a domain route servers with a variable per domain parameter, on the path item when the whole path is on that domain', () => {
    const server = { url: 'https://{account}.example.com', variables: { account: { default: 'account' } } }
    expect(document.paths['/members/{id}'].servers).toEqual([server])
    expect(document.paths['/members/{id}'].get.parameters.map((parameter: any) => parameter.name)).toEqual(['id'])
    expect(document.paths['/regional/{page}'].servers).toEqual([
      { url: 'https://{account}.{region}.example.com', variables: { account: { default: 'account' }, region: { default: 'region' } } },
    ])
    expect(document.paths['/admin'].servers).toEqual([{ url: 'https://admin.example.com' }])
    // /archive holds GET without a domain and DELETE on one: the servers go on the operation.
    expect(document.paths['/archive'].servers).toBeUndefined()
    expect(document.paths['/archive'].get.servers).toBeUndefined()
    expect(document.paths['/archive'].delete.servers).toEqual([server])
  })

  it('keeps the route without a domain where two hosts share a path and a method', () => {
    expect(document.paths['/'].get.operationId).toBe('home')
    expect(document.paths['/'].servers).toBeUndefined()
  })
})

describe('contracts over HTTP', () => {
  let server: RunningServer
  let document: any

  beforeAll(async () => {
    const router = makeRouter()
    server = await listenOn(serveNode, router)
    document = await readJson(await fetch(`${server.url}/openapi.json`))
  })
  afterAll(() => server.close())

  const send = (method: string, path: string, body: unknown) =>
    fetch(server.url + path, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

  /** Every operation with a convertible JSON body, with the sample the document's schema gives. */
  function bodyOperations() {
    const found: { method: string; path: string; schema: any }[] = []
    for (const [path, operations] of Object.entries<any>(document.paths)) {
      for (const [method, operation] of Object.entries<any>(operations)) {
        const schema = operation.requestBody?.content['application/json'].schema
        if (schema && !schema['x-fw-schema']) found.push({ method: method.toUpperCase(), path: path.replace('{id}', '7'), schema })
      }
    }
    return found
  }

  it('leaves out the routes marked excludeFromDocs, and a group\'s in nested groups too, which answer as before', async () => {
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/webhooks') || path.startsWith('/admin'))).toEqual([])
    expect([(await fetch(`${server.url}/webhooks/mail`, { method: 'POST' })).status, (await fetch(`${server.url}/admin`)).status]).toEqual([200, 200])
    expect(await readJson(await fetch(`${server.url}/admin/users/7`))).toEqual({ id: '7' })
  })

  it('serves the document at /openapi.json outside production', () => {
    expect(document.openapi).toBe('3.1.0')
    expect(bodyOperations().map(({ method, path }) => `${method} ${path}`)).toEqual(['POST /posts', 'PUT /posts/7', 'POST /categories', 'POST /newsletter'])
  })

  it('accepts a sample built from the document, and answers 422 naming a required field dropped or of the wrong type', async () => {
    for (const { method, path, schema } of bodyOperations()) {
      const shape = schema.$ref ? resolve(schema.$ref, document) : schema
      const sample = sampleOf(shape, document) as Record<string, unknown>
      const accepted = await send(method, path, sample)
      expect(accepted.status, `${method} ${path} with ${JSON.stringify(sample)}`).toBeLessThan(300)

      for (const field of shape.required ?? []) {
        const { [field]: _dropped, ...without } = sample
        const missing = await send(method, path, without)
        expect(missing.status, `${method} ${path} without ${field}`).toBe(422)
        expect(Object.keys((await readJson(missing)).errors)).toContain(field)

        const wrong = await send(method, path, { ...sample, [field]: wrongTypeFor(shape.properties[field], document) })
        expect(wrong.status, `${method} ${path} with ${field} of the wrong type`).toBe(422)
        expect(Object.keys((await readJson(wrong)).errors)).toContain(field)
      }
    }
  })

  it('validates the declared query with request.validate(\'query\')', async () => {
    const ok = await fetch(`${server.url}/posts?q=fw&page=2`)
    expect(await readJson(ok)).toEqual({ query: { q: 'fw', page: 2 } })
    const missing = await fetch(`${server.url}/posts?page=2`)
    expect(missing.status).toBe(422)
    expect(Object.keys((await readJson(missing)).errors)).toEqual(['q'])
  })

  it('checks declared path parameters before the handler: a refused value is 404', async () => {
    expect((await fetch(`${server.url}/posts/12`)).status).toBe(200)
    const refused = await fetch(`${server.url}/posts/abc`)
    expect(refused.status).toBe(404)
    expect(await readJson(refused)).toEqual({ error: 'Not Found' })
  })

  it('request.validate() on a route that declares no body says so (500 naming the route)', async () => {
    const router = new Router(new Container(), { debug: true })
    router.post('/plain', async (request) => ({ value: await request.validate() }))
    const plain = await listenOn(serveNode, router)
    try {
      const response = await fetch(`${plain.url}/plain`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })
      expect(response.status).toBe(500)
      expect(JSON.stringify(await readJson(response))).toContain('the route POST /plain declares none: add .body(schema) to the route')
    } finally {
      await plain.close()
    }
  })
})

/** The X-API-Key check of the api starter, declared as an app declares its own middleware. */
const apiKey = documented(
  (request: Request, next: () => Promise<Response>) => (request.header('x-api-key') === 'secret-key' ? next() : Response.error('Unauthenticated', 401)),
  {
    responses: { 401: { description: 'No valid X-API-Key header' } },
    security: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
  },
)
/** A throttle as the runtime's will declare it: a 429 with Retry-After. */
const throttle = documented((_request: Request, next: () => Promise<Response>) => next(), {
  responses: { 429: { description: 'Too many requests', headers: { 'Retry-After': 'Seconds to wait before trying again' } } },
})
const adminOnly = documented((_request: Request, next: () => Promise<Response>) => Promise.resolve(Response.error('Forbidden', 403)), {
  responses: { 403: { description: 'Only for administrators' } },
})

function guardedRouter(): Router {
  const router = new Router(new Container())
  router.use(throttle)
  router.use('/admin/*', adminOnly)
  router.aliasMiddleware('can:edit,post', documented((_request, next) => next(), { responses: { 403: { description: 'Not allowed to edit this post' } } }))
  router.aliasMiddleware('canView', (_request, next) => next())
  router.post('/api/users', () => Response.json({ id: 1 }, 201)).middleware(apiKey).body(z.object({ name: z.string() })).returns(201, undefined, 'Created')
  router.get('/me', () => ({ me: true })).middleware(auth)
  router.get('/home', () => Response.html('<h1>Home</h1>')).middleware(auth).returns(200, 'text/html', 'The home page')
  router.get('/password', () => ({})).middleware('session', auth, 'csrf')
  router.post('/password', () => ({})).middleware('session', auth, 'csrf')
  router.post('/contact', () => ({})).middleware('session', 'csrf')
  router.put('/posts/{id}', () => ({})).middleware(auth, 'can:edit,post')
  router.get('/secret', () => ({})).middleware('canView')
  router.get('/posts/{id}', () => ({ id: 1 })).where('id', /\d+/)
  router.get('/tags/{slug}', () => ({})).where('slug', /[a-z]+/i)
  router.get('/links/{id}', () => ({})).middleware('signed')
  router.get('/dashboard', () => ({})).middleware(auth, 'verified')
  router.get('/admin/stats', () => ({}))
  // Inside /admin/* for some values of {area} only: the layer checks the path per request, and keeps the declaration.
  router.get('/{area}/report', () => ({}))
  return router
}

describe('openApiDocument of what middleware declare', () => {
  const document = openApiDocument(guardedRouter().commit().getRoutes(), info, { serverUrl: 'https://api.example.com/' }) as any
  const operation = (method: string, path: string) => document.paths[path][method]

  it('is valid, with servers from APP_URL and an empty root security: an operation nothing guards is public', async () => {
    const result = await validateOpenApi(structuredClone(document))
    expect(result.valid ? [] : result.errors).toEqual([])
    expect(document.servers).toEqual([{ url: 'https://api.example.com' }])
    expect(document.security).toEqual([])
    expect(operation('get', '/secret').security).toBeUndefined()
  })

  it("adds an app's own middleware's response and security scheme", () => {
    const store = operation('post', '/api/users')
    expect(store.security).toEqual([{ apiKey: [] }])
    expect(document.components.securitySchemes.apiKey).toEqual({ type: 'apiKey', in: 'header', name: 'X-API-Key' })
    expect(store.responses['401']).toEqual({ description: 'No valid X-API-Key header', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } })
    expect(store.responses['201']).toEqual({ description: 'Created' })
  })

  it("adds global and path-scoped middleware's responses, a header with its schema", () => {
    for (const [path, item] of Object.entries<any>(document.paths)) {
      for (const one of Object.values<any>(item)) {
        expect(one.responses['429'], path).toEqual({
          description: 'Too many requests',
          headers: { 'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer', minimum: 0 } } },
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        })
      }
    }
    expect(operation('get', '/admin/stats').responses['403'].description).toBe('Only for administrators')
    expect(operation('get', '/{area}/report').responses['403'].description).toBe('Only for administrators')
    expect(operation('get', '/me').responses['403']).toBeUndefined()
  })

  it('documents auth: 401 on a JSON operation, and its redirect to sign in as well on a page', () => {
    expect(Object.keys(operation('get', '/me').responses)).toEqual(['200', '400', '401', '413', '429'])
    const home = operation('get', '/home').responses
    expect(Object.keys(home)).toEqual(['200', '302', '400', '401', '413', '429'])
    expect(home['302']).toEqual({
      description: 'A browser that is not signed in is sent to /login',
      headers: { Location: { description: 'The sign-in page', schema: { type: 'string', format: 'uri-reference' } } },
    })
  })

  it('combines credentials: auth and the CSRF check take a bearer token, or the session cookie with the CSRF token, on the methods it checks', () => {
    expect(operation('post', '/password').security).toEqual([{ bearerAuth: [] }, { sessionCookie: [], csrfToken: [] }])
    expect(operation('post', '/password').responses['419'].description).toMatch(/^CSRF token mismatch/)
    expect(operation('get', '/password').security).toEqual([{ bearerAuth: [] }, { sessionCookie: [] }])
    expect(operation('get', '/password').responses['419']).toBeUndefined()
    expect(operation('post', '/contact').security).toEqual([{ bearerAuth: [] }, { csrfToken: [] }])
    expect(Object.keys(document.components.securitySchemes)).toEqual(['apiKey', 'bearerAuth', 'sessionCookie', 'csrfToken'])
  })

  it("gives a 403 only where a middleware declares it: a can… alias's declaration, signed, verified", () => {
    expect(operation('put', '/posts/{id}').responses['403'].description).toBe('Not allowed to edit this post')
    expect(operation('get', '/secret').responses['403']).toBeUndefined()
    expect(operation('get', '/links/{id}').responses['403'].description).toMatch(/signature/)
    expect(operation('get', '/dashboard').responses['403'].description).toBe('Your email address is not verified.')
    expect(operation('get', '/dashboard').responses['302']).toBeUndefined()
  })

  it('turns a .where() pattern into the parameter\'s anchored pattern and a 404', () => {
    const show = operation('get', '/posts/{id}')
    expect(show.parameters).toEqual([{ name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^(?:\\d+)$' } }])
    expect(show.responses['404'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' })
    // JSON Schema patterns have no flags: a case-insensitive one is told in words.
    expect(operation('get', '/tags/{slug}').parameters[0].schema).toEqual({ type: 'string', description: 'Matches /^(?:[a-z]+)$/i; anything else is a 404.' })
  })

  it('gives every error a JSON body, Error or ValidationError, and every operation a 4xx', () => {
    const shared = document.components.responses
    for (const item of Object.values<any>(document.paths)) {
      for (const one of Object.values<any>(item)) {
        const statuses = Object.keys(one.responses)
        expect(statuses.some((status) => status.startsWith('4')), one.operationId).toBe(true)
        for (const status of statuses.filter((code) => Number(code) >= 400)) {
          const response = one.responses[status].$ref ? shared[one.responses[status].$ref.split('/').pop()] : one.responses[status]
          expect(response.content['application/json'].schema.$ref, `${one.operationId} ${status}`).toMatch(/^#\/components\/schemas\/(Error|ValidationError)$/)
        }
      }
    }
    expect(operation('post', '/api/users').responses['422'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ValidationError' })
  })

  describe('over HTTP, without credentials', () => {
    let server: RunningServer
    const previousKey = process.env.APP_KEY

    beforeAll(async () => {
      process.env.APP_KEY = `base64:${Buffer.alloc(32, 7).toString('base64')}`
      server = await listenOn(serveNode, guardedRouter())
    })
    afterAll(async () => {
      await server.close()
      if (previousKey === undefined) delete process.env.APP_KEY
      else process.env.APP_KEY = previousKey
    })

    it('answers each operation with a status its document lists, as an API client and as a browser', async () => {
      const answers: string[] = []
      for (const [path, item] of Object.entries<any>(document.paths)) {
        for (const [method, one] of Object.entries<any>(item)) {
          const page = Object.values<any>(one.responses).some((response) => response.content?.['text/html'])
          const url = server.url + path.replace(/\{\w+\}/, '7')
          const headers: Record<string, string> = page ? { Accept: 'text/html' } : { Accept: 'application/json', 'Content-Type': 'application/json' }
          const response = await fetch(url, { method: method.toUpperCase(), headers, redirect: 'manual', ...(method === 'get' ? {} : { body: '{}' }) })
          await response.arrayBuffer()
          expect(Object.keys(one.responses), `${method.toUpperCase()} ${path}`).toContain(String(response.status))
          answers.push(`${method.toUpperCase()} ${path} ${response.status}`)
        }
      }
      expect(answers).toEqual(expect.arrayContaining(['POST /api/users 401', 'GET /me 401', 'GET /home 302', 'POST /password 401', 'POST /contact 419', 'GET /links/{id} 403', 'GET /admin/stats 403']))
      expect((await fetch(`${server.url}/admin/report`)).status).toBe(403)
      expect((await fetch(`${server.url}/public/report`)).status).toBe(200)
      expect((await fetch(`${server.url}/posts/abc`)).status).toBe(404)
      expect((await fetch(`${server.url}/api/users`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{' })).status).toBe(400)
    })
  })
})

describe('openApiDocument of two schemes of one name', () => {
  it('fails naming the route and the scheme: one name is one scheme in the document', () => {
    const router = new Router(new Container())
    router.get('/me', () => ({})).middleware(auth)
    router.get('/partner', () => ({})).middleware(documented((_request, next) => next(), { security: { bearerAuth: { type: 'http', scheme: 'basic' } } }))
    expect(() => openApiDocument(router.commit().getRoutes(), info)).toThrow(
      'The middleware of GET /partner declare a security scheme "bearerAuth" that differs from the one of that name already in the document',
    )
  })
})
