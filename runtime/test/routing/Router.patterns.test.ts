import { request as httpRequest } from 'node:http'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Container } from '../../src/container/Container.js'
import type { Request } from '../../src/http/Request.js'
import { Route } from '../../src/routing/Route.js'
import type { Middleware } from '../../src/routing/RouteDefinition.js'
import { Router } from '../../src/routing/Router.js'
import { UrlSigner } from '../../src/routing/UrlSigner.js'
import type { RunningServer } from '../../src/server/listen.js'
import { testClient } from '../../src/testing/TestClient.js'
import { listenOn, servers } from '../support/servers.js'

/** What a handler saw: its arguments after the Request, and `request.params`. */
const echo = (request: Request, ...args: (string | undefined)[]) => ({ args: args.map((arg) => arg ?? null), params: { ...request.params } })

/** Segments of text and parameters, optional parameters and domain routes, on one router. */
async function buildRouter(): Promise<Router> {
  const router = new Router(new Container())
  await router.loadRoutes(async () => {
    Route.get('/images/{id}.{ext}', echo).name('images.show').where('ext', /jpg|png/)
    Route.get('/images/{id}', echo)
    Route.get('/files/{name}-v{version}', echo).name('files.version').whereNumber('version')
    Route.get('/{lang}-{region}/about', echo).name('about').whereAlpha('lang', 'region')
    Route.get('/users/{id?}', echo).name('users')
    Route.get('/archive/{year?}/{month?}', echo).name('archive').whereNumber('year', 'month')
    Route.get('/posts/{page?}', echo).name('posts').defaults('page', 1)

    Route.get('/', () => ({ site: 'main' }))
    Route.get('/dashboard', () => ({ site: 'main dashboard' }))
    Route.post('/only-post', () => ({ site: 'main' }))
    Route.domain('{account}.example.com').group(() => {
      Route.get('/', echo).name('tenant.home').where('account', /[a-z]+/)
      Route.get('/members/{id}', echo).name('tenant.user')
      Route.get('/only-post', echo)
    })
    Route.group({ domain: 'admin.example.com', prefix: '/admin', as: 'admin.' }, () => {
      Route.get('/', () => ({ site: 'admin' })).name('home')
    })
    Route.domain('{account}.example.com').group(() => {
      Route.group({ domain: 'status.example.com' }, () => {
        Route.get('/status', () => ({ site: 'status' })).name('status')
      })
    })
    Route.group({ domain: 'admin.example.com' }, () => {
      Route.get('/dashboard', () => ({ site: 'admin dashboard' }))
    })
  })
  return router
}

let built: Promise<Router> | undefined
/** The facade binds to one router a process: both servers and the test client share it. */
function buildRouterOnce(): Promise<Router> {
  built ??= buildRouter()
  return built
}

/** A GET with a Host header of the test's choosing (fetch sets its own). */
function getOn(url: string, host: string, path: string): Promise<{ status: number; body: any }> {
  const { port } = new URL(url)
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port, path, headers: { host } }, (response) => {
      let text = ''
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk))
      response.on('end', () => resolve({ status: response.statusCode!, body: text ? JSON.parse(text) : undefined }))
    })
    request.on('error', reject).end()
  })
}

describe.each(servers)('Route patterns over $name', ({ start }) => {
  let server: RunningServer
  const get = async (path: string): Promise<{ status: number; body: any }> => {
    const res = await fetch(`${server.url}${path}`)
    return { status: res.status, body: res.status === 200 ? await res.json() : undefined }
  }
  const on = (host: string, path: string) => getOn(server.url, host, path)

  beforeAll(async () => {
    server = await listenOn(start, await buildRouterOnce())
  })
  afterAll(async () => {
    await server.close()
  })

  it('a segment of text and parameters hands each parameter to the handler', async () => {
    expect(await get('/images/photo.jpg')).toEqual({ status: 200, body: { args: ['photo', 'jpg'], params: { id: 'photo', ext: 'jpg' } } })
    expect((await get('/files/lib-v2')).body.args).toEqual(['lib', '2'])
    expect((await get('/en-GB/about')).body.params).toEqual({ lang: 'en', region: 'GB' })
  })

  it('a parameter followed by a separator in its segment never contains it, as in Laravel', async () => {
    expect((await get('/files/my-lib-v2')).status).toBe(404) // {name} stops at the first -
  })

  it('where constrains each parameter of the segment as it splits; a value it refuses goes on to the next route or is not found', async () => {
    // ext takes jpg or png only, so the segment is not {id}.{ext}'s: the whole-segment {id} takes it.
    expect((await get('/images/archive.tar.gz')).body).toEqual({ args: ['archive.tar.gz'], params: { id: 'archive.tar.gz' } })
    expect((await get('/files/lib-vtwo')).status).toBe(404)
    expect((await get('/en1-GB/about')).status).toBe(404)
  })

  it('a segment without the text goes on to the whole-segment parameter', async () => {
    expect((await get('/images/photo')).body.args).toEqual(['photo'])
  })

  it('decodes a segment before splitting it', async () => {
    expect((await get('/images/J%C3%BCrgen%20M.png')).body.args).toEqual(['Jürgen M', 'png'])
    expect((await get('/images/a%2Fb.jpg')).body.args).toEqual(['a/b', 'jpg'])
    expect((await get('/images/%E0%A4%A.jpg')).status).toBe(400)
  })

  it('an optional parameter is its value when present, undefined when absent, with or without a trailing slash', async () => {
    expect((await get('/users/5')).body).toEqual({ args: ['5'], params: { id: '5' } })
    expect((await get('/users')).body).toEqual({ args: [], params: {} })
    expect((await get('/users/')).body).toEqual({ args: [], params: {} })
    expect((await get('/archive/2024/05')).body.args).toEqual(['2024', '05'])
    expect((await get('/archive/2024/')).body.args).toEqual(['2024'])
    expect((await get('/archive')).body.args).toEqual([])
    expect((await get('/archive/last')).status).toBe(404)
    expect((await get('/archive/2024/05/01')).status).toBe(404)
  })

  it('an optional parameter with .defaults() gets its default when absent', async () => {
    expect((await get('/posts')).body).toEqual({ args: ['1'], params: { page: '1' } })
    expect((await get('/posts/3')).body).toEqual({ args: ['3'], params: { page: '3' } })
  })

  it('a domain route answers on a host of its pattern, whatever the port, and its parameters come first', async () => {
    expect(await on('acme.example.com', '/members/7')).toEqual({ status: 200, body: { args: ['acme', '7'], params: { account: 'acme', id: '7' } } })
    expect((await on('Acme.Example.COM:8000', '/members/7')).body.args).toEqual(['acme', '7'])
    expect((await on('acme.example.com.', '/members/7')).body.args).toEqual(['acme', '7'])
  })

  it('a domain route is not there on another host', async () => {
    expect((await on('example.com', '/members/7')).status).toBe(404)
    expect((await on('acme.example.org', '/members/7')).status).toBe(404)
    expect((await on('a.b.example.com', '/members/7')).status).toBe(404)
    expect((await get('/members/7')).status).toBe(404)
    expect((await on('acme.example.com', '/users/7')).body.args).toEqual(['7']) // /users/{id?}, on any host
  })

  it('on its host, a domain route wins over the route without a domain at the same path, and a constraint it refuses gives way', async () => {
    expect((await on('acme.example.com', '/')).body).toEqual({ args: ['acme'], params: { account: 'acme' } })
    expect((await on('example.com', '/')).body).toEqual({ site: 'main' })
    expect((await on('acme1.example.com', '/')).body).toEqual({ site: 'main' }) // where('account', /[a-z]+/) refuses acme1
  })

  it('a static domain comes before a domain with parameters, and an inner group\'s domain replaces the outer one', async () => {
    expect((await on('admin.example.com', '/dashboard')).body).toEqual({ site: 'admin dashboard' })
    expect((await on('acme.example.com', '/dashboard')).body).toEqual({ site: 'main dashboard' })
    expect((await on('admin.example.com', '/admin')).body).toEqual({ site: 'admin' })
    expect((await on('status.example.com', '/status')).body).toEqual({ site: 'status' })
    expect((await on('acme.example.com', '/status')).status).toBe(404)
  })

  it('the route for the method wins: a domain path without it gives way to one with it, else 405', async () => {
    const { port } = new URL(server.url)
    const post = (host: string) =>
      new Promise<number>((resolve, reject) => {
        httpRequest({ host: '127.0.0.1', port, path: '/only-post', method: 'POST', headers: { host } }, (response) => {
          response.resume().on('end', () => resolve(response.statusCode!))
        })
          .on('error', reject)
          .end()
      })
    expect(await post('acme.example.com')).toBe(200)
    expect((await on('acme.example.com', '/only-post')).status).toBe(200)
    expect((await on('example.com', '/only-post')).status).toBe(405)
  })
})

describe('Route patterns through the test client', () => {
  it('sends the host of an absolute URL, or a Host header, to domain routes', async () => {
    const client = testClient(await buildRouterOnce())
    expect(await (await client.get('http://acme.example.com/members/7')).json()).toEqual({ args: ['acme', '7'], params: { account: 'acme', id: '7' } })
    expect(await (await client.get('/members/7', { headers: { host: 'beta.example.com' } })).json()).toMatchObject({ args: ['beta', '7'] })
    expect(await (await client.get('/')).json()).toEqual({ site: 'main' })
  })
})

describe('segments of text and parameters, as Laravel splits them (Symfony\'s route compiler)', () => {
  it('a parameter followed by a separator in its segment cannot contain that separator', async () => {
    const router = new Router(new Container())
    router.get('/a/{param}-static', echo)
    const client = testClient(router)
    expect(await (await client.get('/a/x-static')).json()).toEqual({ args: ['x'], params: { param: 'x' } })
    expect((await client.get('/a/x-y-static')).status).toBe(404)
  })

  it('where patterns decide where the parameters split', async () => {
    const router = new Router(new Container())
    router.get('/{foo}-{bar}-', echo).where('foo', '.+')
    router.get('/b/{foo}-{bar}-', echo)
    const client = testClient(router)
    expect(await (await client.get('/text1-text2-text3-text4-')).json()).toEqual({
      args: ['text1-text2-text3', 'text4'],
      params: { foo: 'text1-text2-text3', bar: 'text4' },
    })
    // Without it, {foo} stops at the first -, and the path is not the route's.
    expect((await client.get('/b/text1-text2-text3-text4-')).status).toBe(404)
    expect(await (await client.get('/b/text1-text4-')).json()).toEqual({ args: ['text1', 'text4'], params: { foo: 'text1', bar: 'text4' } })
  })

  it('routes of one pattern with where patterns of their own each split by theirs', async () => {
    const router = new Router(new Container())
    router.get('/{foo}-{bar}', echo).where('foo', '[a-z]+-[a-z]+')
    router.post('/{foo}-{bar}', echo)
    const client = testClient(router)
    expect((await (await client.get('/ab-cd-ef')).json()).args).toEqual(['ab-cd', 'ef'])
    expect((await (await client.post('/ab-cd-ef')).json()).args).toEqual(['ab', 'cd-ef'])
  })
})

describe('parameter schemas on optional parameters', () => {
  it('check a value the path gives, and leave an absent one alone', async () => {
    const router = new Router(new Container())
    router.get('/pages/{page?}', echo).params({ page: z.string().regex(/^\d+$/) })
    router.get('/sections/{section?}', echo).params({ section: z.string().regex(/^\d+$/) }).defaults('section', 'intro')
    const client = testClient(router)
    expect((await client.get('/pages/2')).status).toBe(200)
    expect((await client.get('/pages/two')).status).toBe(404)
    expect(await (await client.get('/pages')).json()).toEqual({ args: [], params: {} })
    // A default goes through the schema as a value of the path would.
    expect((await client.get('/sections')).status).toBe(404)
  })
})

describe('router.use(path) on route patterns', () => {
  it('runs where the values of a segment of text and parameters, or the optional parameters present, put the path inside', async () => {
    const router = new Router(new Container())
    router.publicFiles(false)
    const british: Middleware = async (_request, next) => (await next()).setHeader('X-British', 'yes')
    router.use('/en-GB/*', british)
    router.use('/archive/2024', british)
    router.get('/{lang}-{region}/about', echo)
    router.get('/archive/{year?}/{month?}', echo)
    const client = testClient(router)
    const header = async (path: string) => (await client.get(path)).headers.get('x-british')
    expect(await header('/en-GB/about')).toBe('yes')
    expect(await header('/en-US/about')).toBeNull()
    expect(await header('/archive/2024')).toBe('yes')
    expect(await header('/archive/2024/05')).toBeNull()
    expect(await header('/archive')).toBeNull()
  })
})

describe('URLs of route patterns', () => {
  const previous = process.env.APP_URL
  afterEach(() => {
    if (previous === undefined) delete process.env.APP_URL
    else process.env.APP_URL = previous
  })

  it('fill each parameter of a segment of text and parameters', async () => {
    const router = await buildRouterOnce()
    expect(router.url('images.show', { id: 'a b', ext: 'jpg' })).toBe('/images/a%20b.jpg')
    expect(router.url('files.version', { name: 'lib', version: 2 })).toBe('/files/lib-v2')
    expect(() => router.url('images.show', { id: 'a' })).toThrow('Route "images.show" needs the parameter "ext"')
  })

  it('leave out an absent optional parameter and fill a given one', async () => {
    const router = await buildRouterOnce()
    expect(router.url('users')).toBe('/users')
    expect(router.url('users', { id: 5 })).toBe('/users/5')
    expect(router.url('archive', { year: 2024 })).toBe('/archive/2024')
    expect(router.url('archive', { year: 2024, month: 5, sort: 'new' })).toBe('/archive/2024/5?sort=new')
    expect(router.url('archive')).toBe('/archive')
    expect(() => router.url('archive', { month: 5 })).toThrow('Route "archive": "month" is given without "year", the optional parameter before it')
  })

  it('of a domain route are absolute, on the scheme and port of APP_URL (else http)', async () => {
    const router = await buildRouterOnce()
    delete process.env.APP_URL
    expect(router.url('tenant.user', { account: 'acme', id: 7 })).toBe('http://acme.example.com/members/7')
    expect(router.url('admin.home')).toBe('http://admin.example.com/admin')
    process.env.APP_URL = 'https://example.com'
    expect(router.url('tenant.home', { account: 'Acme', tab: 'x' })).toBe('https://acme.example.com/?tab=x')
    process.env.APP_URL = 'http://localhost:8000'
    expect(router.url('tenant.user', { account: 'acme', id: 7 })).toBe('http://acme.example.com:8000/members/7')
    expect(router.absoluteUrl('tenant.user', { account: 'acme', id: 7 })).toBe('http://acme.example.com:8000/members/7')
    expect(() => router.url('tenant.user', { id: 7 })).toThrow('Route "tenant.user" needs the parameter "account" of its domain {account}.example.com')
  })

  it('of a domain route are signed on its own host', async () => {
    const router = await buildRouterOnce()
    process.env.APP_URL = 'https://example.com'
    const previousKey = process.env.APP_KEY
    process.env.APP_KEY = 'base64:' + Buffer.alloc(32, 7).toString('base64')
    try {
      const link = new URL(router.signedUrl('tenant.user', { account: 'acme', id: 7 }))
      expect(link.origin + link.pathname).toBe('https://acme.example.com/members/7')
      expect(UrlSigner.fromEnvironment().verify(link.pathname + link.search)).toBe('valid')
    } finally {
      if (previousKey === undefined) delete process.env.APP_KEY
      else process.env.APP_KEY = previousKey
    }
  })
})

describe('Route patterns refused at registration', () => {
  it('say what is wrong with the pattern, the domain or the default', () => {
    const router = new Router(new Container())
    expect(() => router.get('/files/{name}{ext}', echo)).toThrow(
      'Route "/files/{name}{ext}": {name}{ext} in "{name}{ext}" has no text between the parameters, so where one ends is unknown; put a separator between them, as {name}-{ext}',
    )
    expect(() => router.get('/posts/{year?}/{slug}', echo)).toThrow(
      'Route "/posts/{year?}/{slug}": the optional parameter {year?} is followed by "{slug}"; only optional parameters may follow an optional one',
    )
    expect(() => router.domain('https://{account}.example.com')).toThrow(
      'Domain "https://{account}.example.com": a domain is a host name without scheme, port or path, such as {account}.example.com',
    )
    expect(() => router.group({ domain: '{id}.example.com' }, () => router.get('/users/{id}', echo))).toThrow(
      'Route "/users/{id}": parameter {id} is in its domain {id}.example.com and in its path',
    )
    expect(() => router.get('/users/{id}', echo).defaults('id', 1)).toThrow(
      'Route "/users/{id}": a default is for an optional parameter, {id?}, and the route has none of that name',
    )
    expect(() => router.domain('{account}.example.com').group(() => router.get('/x', echo).where('tenant', /x/))).toThrow(
      'Route "/x" has no parameter {tenant} to constrain',
    )
  })

  it('name a domain route with its domain', () => {
    const router = new Router(new Container())
    router.domain('{account}.example.com').group(() => {
      expect(String(router.get('/users/{id}', echo))).toBe('GET {account}.example.com/users/{id}')
    })
  })
})
