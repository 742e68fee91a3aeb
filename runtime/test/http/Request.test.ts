import { request as httpRequest, type IncomingMessage } from 'node:http'
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest'
import { Container } from '../../src/container/Container.js'
import type { Request } from '../../src/http/Request.js'
import { Response } from '../../src/http/Response.js'
import { Router } from '../../src/routing/Router.js'
import type { RunningServer } from '../../src/server/listen.js'
import { requestFor } from '../support/requestFor.js'
import { listenOn, readJson, servers } from '../support/servers.js'

/** Every accessor of the request, echoed back, so the test sees what the handler saw. */
function echo(request: Request): Response {
  return Response.json({
    all: request.all(),
    input_name: request.input('name') ?? null,
    input_nested: request.input('user.name') ?? null,
    input_default: request.input('missing', 'fallback'),
    get_page: request.get('page'),
    get_default: request.get('absent', 'dflt'),
    query_page: request.query('page'),
    query_default: request.query('absent', 'dflt'),
    method: request.method(),
    uri: request.uri(),
    url: request.url(),
    header_agent: request.header('X-Custom-Agent'),
    header_missing: request.header('X-Missing'),
    params: request.params,
    body: request.body() ?? null,
    content: request.content(),
    query: request.query(),
    cookie: request.cookie('session') ?? null,
  })
}

async function raw(
  url: string,
  options: { method?: string; headers?: Record<string, string>; chunks?: (string | Buffer)[] },
): Promise<{ status: number; headers: IncomingMessage['headers']; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method ?? 'POST', headers: options.headers })
    req.on('error', reject)
    req.on('response', (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
    })
    for (const chunk of options.chunks ?? []) req.write(chunk)
    req.end()
  })
}

describe.each(servers)('Request over $name', ({ start }) => {
  let server: RunningServer
  let small: RunningServer

  beforeAll(async () => {
    const router = new Router(new Container())
    router.any('/echo', echo)
    router.any('/echo/{first}/and/{second}', echo)
    router.post('/ignores-body', () => ({ ok: true }))
    server = await listenOn(start, router)
    small = await listenOn(start, router, { bodyLimit: 1024 })
  })
  afterAll(async () => {
    await server.close()
    await small.close()
  })

  it('method() and uri(): the method, and the path without the query', async () => {
    const res = await fetch(`${server.url}/echo?page=2`, { method: 'PUT' })
    const body = await readJson(res)
    expect(body.method).toBe('PUT')
    expect(body.uri).toBe('/echo')
    expect(body.url).toBe('/echo?page=2')
  })

  it('get(key, default): a query value, or the default when absent', async () => {
    const body = await readJson(await fetch(`${server.url}/echo?page=3`))
    expect(body.get_page).toBe('3')
    expect(body.get_default).toBe('dflt')
    const without = await readJson(await fetch(`${server.url}/echo`))
    expect(without.get_page).toBeNull()
  })

  it('query(key, default): one query value as get() gives it, or the default (null) when absent', async () => {
    const body = await readJson(await fetch(`${server.url}/echo?page=3&page=4`))
    expect([body.query_page, body.query_default]).toEqual(['4', 'dflt'])
    const without = await readJson(await fetch(`${server.url}/echo`))
    expect([without.query_page, without.query_default]).toEqual([null, 'dflt'])
  })

  it('query(): repeated and [] keys become arrays', async () => {
    const body = await readJson(await fetch(`${server.url}/echo?tag=a&tag=b&ids[]=1&q=x%20y`))
    expect(body.query).toEqual({ tag: ['a', 'b'], ids: ['1'], q: 'x y' })
  })

  it('query(): a plain query string (nothing to decode) reads as URLSearchParams reads it', async () => {
    const body = await readJson(await fetch(`${server.url}/echo?queries=20&a=b=c&&flag&x[]=1&x[]=2&=v&flag=on`))
    expect(body.query).toEqual({ queries: '20', a: 'b=c', flag: ['', 'on'], x: ['1', '2'], '': 'v' })
  })

  it('header(name): case-insensitive, null when absent', async () => {
    const body = await readJson(await fetch(`${server.url}/echo`, { headers: { 'x-custom-agent': 'tester/1.0' } }))
    expect(body.header_agent).toBe('tester/1.0')
    expect(body.header_missing).toBeNull()
  })

  it('all() and input(): a JSON body merged over the query; input reaches into objects', async () => {
    const res = await fetch(`${server.url}/echo?source=query&name=fromQuery`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Ada', user: { name: 'Nested' }, tags: ['x'] }),
    })
    const body = await readJson(res)
    expect(body.all).toEqual({ source: 'query', name: 'Ada', user: { name: 'Nested' }, tags: ['x'] })
    expect(body.input_name).toBe('Ada')
    expect(body.input_nested).toBe('Nested')
    expect(body.input_default).toBe('fallback')
  })

  it('input() falls back to the query when the body lacks the key', async () => {
    const body = await readJson(await fetch(`${server.url}/echo?name=Query`, { method: 'POST' }))
    expect(body.input_name).toBe('Query')
  })

  it('parses +json media types and a charset parameter', async () => {
    const res = await fetch(`${server.url}/echo`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/vnd.api+json; charset=utf-8' },
      body: '{"name":"Vendor"}',
    })
    expect((await readJson(res)).input_name).toBe('Vendor')
  })

  it('parses application/x-www-form-urlencoded bodies', async () => {
    const res = await fetch(`${server.url}/echo`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'name=Grace+Hopper&roles[]=admin&roles[]=dev',
    })
    const body = await readJson(res)
    expect(body.all).toEqual({ name: 'Grace Hopper', roles: ['admin', 'dev'] })
  })

  it('keeps a text/plain body as content()', async () => {
    const res = await fetch(`${server.url}/echo`, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'just text ✓' })
    const body = await readJson(res)
    expect(body.content).toBe('just text ✓')
    expect(body.body).toBeNull()
    expect(body.all).toEqual({})
  })

  it('an empty JSON body is no input, not an error', async () => {
    const res = await fetch(`${server.url}/echo`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '' })
    expect(res.status).toBe(200)
    expect((await readJson(res)).all).toEqual({})
  })

  it('malformed JSON answers 400 "Invalid JSON body" before the handler runs', async () => {
    const res = await fetch(`${server.url}/ignores-body`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"name": ',
    })
    expect(res.status).toBe(400)
    expect(await readJson(res)).toEqual({ error: 'Invalid JSON body' })
  })

  it('route parameters are strings, in path order', async () => {
    const body = await readJson(await fetch(`${server.url}/echo/12/and/x%20y`))
    expect(body.params).toEqual({ first: '12', second: 'x y' })
  })

  it('cookie(name) reads and URL-decodes a cookie', async () => {
    const body = await readJson(await fetch(`${server.url}/echo`, { headers: { Cookie: 'theme=dark; session=a%20b' } }))
    expect(body.cookie).toBe('a b')
  })

  it('a body under the 1 MiB default is read whole', async () => {
    const text = 'x'.repeat(1024 * 1024 - 20)
    const res = await fetch(`${server.url}/echo`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: text }),
    })
    expect(res.status).toBe(200)
    expect((await readJson(res)).input_name).toHaveLength(text.length)
  })

  it('a body over the 1 MiB default answers 413', async () => {
    const res = await fetch(`${server.url}/echo`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'x'.repeat(1024 * 1024) }),
    })
    expect(res.status).toBe(413)
    expect(await readJson(res)).toEqual({ error: 'Payload Too Large' })
  })

  it('a configured limit answers 413 to a declared Content-Length over it, once the body is read and thrown away', async () => {
    const res = await raw(`${small.url}/ignores-body`, {
      headers: { 'Content-Type': 'application/json', 'Content-Length': '5000' },
      chunks: ['{"a":"', 'x'.repeat(4992), '"}'],
    })
    expect(res.status).toBe(413)
    expect(res.headers.connection).toBe('close')
    expect(JSON.parse(res.body)).toEqual({ error: 'Payload Too Large' })
  })

  it('a chunked body that grows past the limit answers 413 and stops reading', async () => {
    const res = await raw(`${small.url}/ignores-body`, {
      headers: { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
      chunks: ['{"a":"', 'y'.repeat(800), 'y'.repeat(800), '"}'],
    })
    expect(res.status).toBe(413)
    expect(JSON.parse(res.body)).toEqual({ error: 'Payload Too Large' })
  })

  it('a body at the configured limit is accepted', async () => {
    const payload = JSON.stringify({ name: 'z'.repeat(1000) })
    expect(payload.length).toBeLessThanOrEqual(1024)
    const res = await fetch(`${small.url}/echo`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: payload })
    expect(res.status).toBe(200)
  })
})

describe('Request: query() and query(key)', () => {
  it('query(key) is one value: the last of a repeated or [] key, else the default, null unless given', () => {
    const request = requestFor('/list?page=2&tags[]=a&tags[]=b&empty=')
    expect(request.query('page')).toBe('2')
    expect(request.query('tags')).toBe('b')
    expect(request.query('empty')).toBe('')
    expect(request.query('missing')).toBeNull()
    expect(request.query('missing', '1')).toBe('1')
    expect(request.query('constructor')).toBeNull()
    expect({ ...request.query() }).toEqual({ page: '2', tags: ['a', 'b'], empty: '' })
  })

  it('is typed by its arguments: the record, a value or null, a value when a default is given', () => {
    const request = requestFor('/list?page=2')
    expectTypeOf(request.query()).toEqualTypeOf<Record<string, string | string[]>>()
    expectTypeOf(request.query('page')).toEqualTypeOf<string | null>()
    expectTypeOf(request.query('page', '1')).toEqualTypeOf<string>()
    expectTypeOf(request.query('page', null)).toEqualTypeOf<string | null>()
  })
})

describe('Request: the query string', () => {
  /** What the query was before plain strings were split by hand: URLSearchParams for every string. */
  function expected(search: string): Record<string, string | string[]> {
    const result: Record<string, string | string[]> = {}
    for (const [rawKey, value] of new URLSearchParams(search)) {
      const key = rawKey.endsWith('[]') ? rawKey.slice(0, -2) : rawKey
      const existing = result[key]
      if (existing === undefined) result[key] = rawKey.endsWith('[]') ? [value] : value
      else if (Array.isArray(existing)) existing.push(value)
      else result[key] = [existing, value]
    }
    return result
  }

  it.each([
    '',
    'a',
    'a=',
    '=b',
    '=',
    '&',
    '&&a=1&&',
    'a=b=c',
    'a=1&a=2&a[]=3',
    'tags[]=x&tags[]=y',
    'q=x+y&r=%41%zz',
    'page=2&sort=-created_at,title',
    "x=!$'()*,;:@/?~._-",
    'name=Zoë&city=東京',
    'a=%',
    'key[]=',
  ])('%j', (search) => {
    expect({ ...requestFor(`/path?${search}`).query() }).toEqual(expected(search))
  })
})

describe('Request: host()', () => {
  it.each<[string | undefined, string]>([
    ['acme.example.com', 'acme.example.com'],
    ['Acme.Example.COM:8000', 'acme.example.com'],
    ['example.com.', 'example.com'],
    ['127.0.0.1:3000', '127.0.0.1'],
    ['[::1]:8000', '[::1]'],
    ['[::1]', '[::1]'],
    [undefined, ''],
  ])('is the Host header %j without its port, in lower case: %j', (header, host) => {
    const request = requestFor('/')
    if (header !== undefined) request.raw.headers.host = header
    expect(request.host()).toBe(host)
  })

  it('never reads X-Forwarded-Host', () => {
    const request = requestFor('/')
    request.raw.headers.host = 'example.com'
    request.raw.headers['x-forwarded-host'] = 'evil.example.org'
    expect(request.host()).toBe('example.com')
  })
})
