import { validate as validateOpenApi } from '@readme/openapi-parser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import * as v from 'valibot'
import { auth } from '../../src/auth/auth.js'
import { Container } from '../../src/container/Container.js'
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
    expect(document.paths['/'].get.responses).toEqual({ '200': { description: 'OK' } })
    expect(document.paths['/'].get.tags).toEqual(['default'])
    expect(update.tags).toEqual(['Post'])
    expect(document.paths['/events'].post.tags).toEqual(['Events'])
  })

  it('documents a page by its media type', () => {
    expect(document.paths['/about'].get.responses['200']).toEqual({
      description: 'The about page',
      content: { 'text/html': { schema: { type: 'string' } } },
    })
    expect(() => makeRouter().get('/x', () => ({})).returns(200, 'html')).toThrow('"html" is not a media type')
  })

  it('marks routes behind auth with 401, 403 behind can… middleware, and the bearer and cookie schemes', () => {
    const destroy = document.paths['/posts/{id}'].delete
    expect(destroy.security).toEqual([{ bearerAuth: [] }, { sessionCookie: [] }])
    expect(Object.keys(destroy.responses)).toEqual(['200', '401', '403'])
    expect(Object.keys(document.components.securitySchemes)).toEqual(['bearerAuth', 'sessionCookie'])
    expect(document.paths['/posts'].post.security).toBeUndefined()
  })

  it('documents a schema with no JSON Schema as not convertible instead of failing, and a recursive one by $ref', () => {
    expect(document.paths['/events'].post.requestBody.content['application/json'].schema['x-fw-schema']).toBe('not convertible')
    expect(document.paths['/newsletter'].post.requestBody.content['application/json'].schema['x-fw-schema']).toBe('not convertible')
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

  it('serves the document at /openapi.json outside production', () => {
    expect(document.openapi).toBe('3.1.0')
    expect(bodyOperations().map(({ method, path }) => `${method} ${path}`)).toEqual(['POST /posts', 'PUT /posts/7', 'POST /categories'])
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
