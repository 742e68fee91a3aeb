import { once } from 'node:events'
import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Container } from '../../src/container/Container.js'
import { Response } from '../../src/http/Response.js'
import { Router } from '../../src/routing/Router.js'
import type { RunningServer } from '../../src/server/listen.js'
import { listenOn, sendRaw, servers } from '../support/servers.js'

describe('Response (the seed Response API table)', () => {
  it('constructor defaults: empty content, 200, no headers', () => {
    const response = new Response()
    expect(response.getContent()).toBe('')
    expect(response.getStatusCode()).toBe(200)
    expect(response.getHeaders()).toEqual({})
  })

  it('constructor takes content, status and headers', () => {
    const response = new Response('hi', 201, { 'X-One': '1' })
    expect(response.getContent()).toBe('hi')
    expect(response.getStatusCode()).toBe(201)
    expect(response.getHeader('X-One')).toBe('1')
  })

  it('getContent always returns a string: arrays and objects as JSON, numbers as text', () => {
    expect(new Response(['a', 'b']).getContent()).toBe('["a","b"]')
    expect(new Response({ a: 1 }).getContent()).toBe('{"a":1}')
    expect(new Response(42).getContent()).toBe('42')
    expect(new Response(null).getContent()).toBe('')
  })

  it('json: application/json, default 200, Unicode and slashes left unescaped', () => {
    const response = Response.json({ message: 'Grüße / 你好 / http://x/y' })
    expect(response.getStatusCode()).toBe(200)
    expect(response.getHeader('Content-Type')).toBe('application/json')
    expect(response.getContent()).toBe('{"message":"Grüße / 你好 / http://x/y"}')
    expect(Response.json([1], 201).getStatusCode()).toBe(201)
  })

  it('html and text: their content types and default 200', () => {
    expect(Response.html('<p>x</p>').getHeader('content-type')).toBe('text/html; charset=utf-8')
    expect(Response.html('<p>x</p>', 404).getStatusCode()).toBe(404)
    expect(Response.text('plain').getHeader('Content-Type')).toBe('text/plain; charset=utf-8')
    expect(Response.text('plain').getStatusCode()).toBe(200)
  })

  it('error: {"error": message} with a default of 500', () => {
    const response = Response.error('Task not found', 404)
    expect(response.getStatusCode()).toBe(404)
    expect(JSON.parse(response.getContent())).toEqual({ error: 'Task not found' })
    expect(Response.error('boom').getStatusCode()).toBe(500)
  })

  it('setHeader returns the same instance, so calls chain', () => {
    const response = Response.json({})
    expect(response.setHeader('X-API-Version', '1.0').setHeader('X-Request-ID', 'abc')).toBe(response)
    expect(response.getHeader('x-api-version')).toBe('1.0')
    expect(response.getHeader('X-Request-ID')).toBe('abc')
  })

  it('a header set or removed on one JSON response leaves every other JSON response as it was', () => {
    const changed = Response.json({ a: 1 }).setHeader('X-Request-ID', 'r1').removeHeader('content-type')
    const removedOnly = Response.json({ b: 2 }).removeHeader('Content-Type')
    const untouched = Response.json({ c: 3 })
    expect(changed.getHeaders()).toEqual({ 'X-Request-ID': 'r1' })
    expect(removedOnly.getHeaders()).toEqual({})
    expect(untouched.getHeaders()).toEqual({ 'Content-Type': 'application/json' })
    expect(Response.json({}).hasHeader('x-request-id')).toBe(false)
  })

  it('a header set or removed on one HTML, text or empty response leaves every other one as it was', () => {
    const page = Response.html('<p>a</p>').setHeader('Content-Type', 'text/html; charset=latin1').setHeader('X-Frame-Options', 'DENY')
    const text = Response.text('a').removeHeader('content-type')
    const empty = new Response('a').setHeader('X-A', '1')
    expect(page.getHeaders()).toEqual({ 'Content-Type': 'text/html; charset=latin1', 'X-Frame-Options': 'DENY' })
    expect(text.getHeaders()).toEqual({})
    expect(empty.getHeaders()).toEqual({ 'X-A': '1' })
    expect(Response.html('<p>b</p>').getHeaders()).toEqual({ 'Content-Type': 'text/html; charset=utf-8' })
    expect(Response.text('b').getHeaders()).toEqual({ 'Content-Type': 'text/plain; charset=utf-8' })
    expect(new Response('b').getHeaders()).toEqual({})
  })

  it('getHeader returns null, or the given default, when the header is absent', () => {
    expect(new Response().getHeader('X-Missing')).toBeNull()
    expect(new Response().getHeader('X-Missing', 'fallback')).toBe('fallback')
  })

  it('setHeader refuses CR/LF and non-string values with a TypeError', () => {
    const response = new Response()
    expect(() => response.setHeader('X-Evil', 'a\r\nSet-Cookie: x=1')).toThrow(TypeError)
    expect(() => response.setHeader('X-Evil', 'a\nb')).toThrow(TypeError)
    expect(() => response.setHeader('X-Count', 5 as unknown as string)).toThrow(TypeError)
    expect(() => response.setHeader('Bad Name', 'x')).toThrow(TypeError)
    expect(response.getHeader('X-Evil')).toBeNull()
  })

  it('redirect sets Location and 302 by default', () => {
    const response = Response.redirect('/login')
    expect(response.getStatusCode()).toBe(302)
    expect(response.getHeader('Location')).toBe('/login')
    expect(Response.redirect('/new', 301).getStatusCode()).toBe(301)
  })

  it('download sets Content-Disposition with the file name, encoded when not ASCII', () => {
    expect(Response.download('a,b\n', 'tasks.csv').getHeader('Content-Disposition')).toBe('attachment; filename="tasks.csv"')
    expect(Response.download('x', 'résumé.txt').getHeader('Content-Disposition')).toBe(
      `attachment; filename="r_sum_.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9.txt`,
    )
  })

  it('setCookie writes HttpOnly and SameSite=Lax by default, and Secure and Max-Age when asked', () => {
    const response = new Response().setCookie('session', 'a b', { maxAge: 3600, secure: true })
    expect(response.getCookies()).toEqual(['session=a%20b; Path=/; Max-Age=3600; HttpOnly; Secure; SameSite=Lax'])
    response.setCookie('theme', 'dark', { httpOnly: false, sameSite: 'Strict' })
    expect(response.getCookies()[1]).toBe('theme=dark; Path=/; SameSite=Strict')
    expect(() => response.setCookie('bad;name', 'x')).toThrow(TypeError)
  })

  it('setCookie refuses a path or domain with ";", CR or LF, which would add attributes of its own', () => {
    const response = new Response()
    for (const path of ['/; Domain=evil.example', '/a\r\nSet-Cookie: x=1', '/a\nb']) {
      expect(() => response.setCookie('session', 'x', { path })).toThrow(/^Cookie path must not contain ";", CR, LF or NUL/)
    }
    for (const domain of ['example.com; Secure', 'example.com\r', 'example.com\n']) {
      expect(() => response.setCookie('session', 'x', { domain })).toThrow(/^Cookie domain must not contain ";", CR, LF or NUL/)
    }
    expect(() => response.clearCookie('session', { path: '/;x' })).toThrow(TypeError)
    expect(response.getCookies()).toEqual([])
    response.setCookie('session', 'x', { path: '/app', domain: 'example.com' })
    expect(response.getCookies()).toEqual(['session=x; Path=/app; Domain=example.com; HttpOnly; SameSite=Lax'])
  })
})

describe.each(servers)('Response.send over $name', ({ start }) => {
  let server: RunningServer

  beforeAll(async () => {
    const router = new Router(new Container())
    router.get('/json', () => Response.json({ path: '/a/b', name: 'Zoë' }).setHeader('X-Total-Count', '42'))
    router.get('/empty', () => Response.text('', 204))
    router.get('/text-204', () => Response.text('ignored', 204))
    router.get('/cookies', () => new Response('ok').setCookie('a', '1').setCookie('b', '2', { secure: true }))
    router.get('/download', () => Response.download('id,title\n', 'tasks.csv', 'text/csv'))
    router.get('/redirect', () => Response.redirect('/json'))
    router.get('/expired', () => Response.error('Page Expired', 419))
    router.get('/status/{code}', (_request, code) => new Response('', Number(code)))
    server = await listenOn(start, router)
  })
  afterAll(() => server.close())

  it('writes status, headers and a byte-exact Content-Length', async () => {
    const res = await fetch(`${server.url}/json`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(res.headers.get('x-total-count')).toBe('42')
    const body = await res.text()
    expect(body).toBe('{"path":"/a/b","name":"Zoë"}')
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(body)))
  })

  it('a 204 sends no body', async () => {
    for (const path of ['/empty', '/text-204']) {
      const req = httpRequest(`${server.url}${path}`)
      req.end()
      const [res] = (await once(req, 'response')) as [import('node:http').IncomingMessage]
      let bytes = 0
      res.on('data', (chunk: Buffer) => (bytes += chunk.length))
      await once(res, 'end')
      expect(res.statusCode).toBe(204)
      expect(bytes).toBe(0)
      expect(res.headers['content-length']).toBeUndefined()
    }
  })

  it('sends every cookie as its own Set-Cookie header', async () => {
    const res = await fetch(`${server.url}/cookies`)
    expect(res.headers.getSetCookie()).toEqual(['a=1; Path=/; HttpOnly; SameSite=Lax', 'b=2; Path=/; HttpOnly; Secure; SameSite=Lax'])
  })

  it('keeps headers already set on Node\'s response, and still sends every cookie', async () => {
    const custom = await start(
      (_req, res) => {
        // As a server does for a request that arrives while it shuts down (Connection: close).
        res.setHeader('X-Set-Before', 'yes')
        Response.json({ ok: true }).setCookie('a', '1').setCookie('b', '2').send(res)
      },
      { port: 0, host: '127.0.0.1', handleSignals: false },
    )
    try {
      const res = await fetch(custom.url)
      expect(res.headers.get('x-set-before')).toBe('yes')
      expect(res.headers.get('content-type')).toBe('application/json')
      expect(res.headers.getSetCookie()).toEqual(['a=1; Path=/; HttpOnly; SameSite=Lax', 'b=2; Path=/; HttpOnly; SameSite=Lax'])
      expect(await res.text()).toBe('{"ok":true}')
    } finally {
      await custom.close()
    }
  })

  it('sends a download as an attachment', async () => {
    const res = await fetch(`${server.url}/download`)
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="tasks.csv"')
    expect(res.headers.get('content-type')).toBe('text/csv')
    expect(await res.text()).toBe('id,title\n')
  })

  it('sends a redirect with Location', async () => {
    const res = await fetch(`${server.url}/redirect`, { redirect: 'manual' })
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/json')
  })

  it("sends Laravel's reason phrase with a 419, which Node does not know, and Node's with the others", async () => {
    const request = (path: string) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`
    const expired = await sendRaw(server.url, request('/expired'))
    expect([expired.statusLine, expired.body]).toEqual(['HTTP/1.1 419 Page Expired', '{"error":"Page Expired"}'])
    for (const [code, line] of [['200', 'HTTP/1.1 200 OK'], ['404', 'HTTP/1.1 404 Not Found'], ['418', "HTTP/1.1 418 I'm a Teapot"], ['599', 'HTTP/1.1 599 unknown']]) {
      expect((await sendRaw(server.url, request(`/status/${code}`))).statusLine).toBe(line)
    }
  })
})
