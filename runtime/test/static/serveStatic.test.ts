import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Container } from '../../src/container/Container.js'
import { Response } from '../../src/http/Response.js'
import { Router } from '../../src/routing/Router.js'
import type { RunningServer } from '../../src/server/listen.js'
import { serveStatic } from '../../src/static/serveStatic.js'
import { listenOn, servers, transports, type OpenApp } from '../support/servers.js'

interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: Buffer
}

/** A request with the path sent exactly as written (fetch would resolve `..` before sending it). */
function send(server: RunningServer, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: server.port, path, method, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }))
    })
    req.on('error', reject)
    req.end()
  })
}

const CSS = 'body { color: #222; }\n'
// Bytes that are not UTF-8: a file must reach the client byte for byte.
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0xfe, 0x00, 0x80])
const modified = new Date('2026-01-02T03:04:05Z')

let base: string
beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'fw-static-'))
  const pub = join(base, 'public')
  mkdirSync(join(pub, 'css'), { recursive: true })
  mkdirSync(join(pub, 'docs'))
  writeFileSync(join(pub, 'css/app.css'), CSS)
  utimesSync(join(pub, 'css/app.css'), modified, modified)
  writeFileSync(join(pub, 'logo.png'), PNG)
  writeFileSync(join(pub, 'docs/index.html'), '<h1>Docs</h1>')
  writeFileSync(join(pub, 'index.ts'), 'export const secret = 1')
  writeFileSync(join(pub, '.env'), 'APP_KEY=secret')
  writeFileSync(join(base, 'secret.txt'), 'outside public')
  symlinkSync(join(base, 'secret.txt'), join(pub, 'escape.txt'))
  symlinkSync(join(pub, 'css/app.css'), join(pub, 'alias.css'))
})
afterAll(() => rmSync(base, { recursive: true, force: true }))

describe.each(servers)('serveStatic on $name', ({ start }) => {
  let server: RunningServer

  beforeAll(async () => {
    const router = new Router(new Container())
    router.use(serveStatic(join(base, 'public')))
    router.get('/hello', () => Response.json({ message: 'Hello, World!' }))
    router.post('/css/app.css', () => Response.json({ route: 'post' }))
    server = await listenOn(start, router)
  })
  afterAll(() => server.close())

  it('serves a file with its type, length, validators and cache policy', async () => {
    const answer = await send(server, '/css/app.css')
    expect(answer.status).toBe(200)
    expect(answer.body.toString()).toBe(CSS)
    expect(answer.headers).toMatchObject({
      'content-type': 'text/css; charset=utf-8',
      'content-length': String(CSS.length),
      'last-modified': modified.toUTCString(),
      'cache-control': 'public, max-age=0',
      'accept-ranges': 'bytes',
      'x-content-type-options': 'nosniff',
    })
    expect(answer.headers.etag).toMatch(/^W\/"[0-9a-f]+-[0-9a-f]+"$/)
  })

  it('sends binary files byte for byte, and a folder its index.html', async () => {
    const png = await send(server, '/logo.png')
    expect([png.status, png.headers['content-type']]).toEqual([200, 'image/png'])
    expect(png.body.equals(PNG)).toBe(true)
    const docs = await send(server, '/docs/')
    expect([docs.status, docs.headers['content-type'], docs.body.toString()]).toEqual([200, 'text/html; charset=utf-8', '<h1>Docs</h1>'])
  })

  it('answers 304 with no body to a matching If-None-Match or If-Modified-Since', async () => {
    const { headers } = await send(server, '/css/app.css')
    const byTag = await send(server, '/css/app.css', { 'If-None-Match': String(headers.etag) })
    expect([byTag.status, byTag.body.length, byTag.headers.etag]).toEqual([304, 0, headers.etag])
    const byDate = await send(server, '/css/app.css', { 'If-Modified-Since': modified.toUTCString() })
    expect(byDate.status).toBe(304)
    const older = await send(server, '/css/app.css', { 'If-Modified-Since': new Date(modified.getTime() - 60_000).toUTCString() })
    expect(older.status).toBe(200)
    const otherTag = await send(server, '/css/app.css', { 'If-None-Match': 'W/"0-0"', 'If-Modified-Since': modified.toUTCString() })
    expect(otherTag.status).toBe(200)
  })

  it('serves one byte range, a suffix range, and 416 for a range past the end', async () => {
    const first = await send(server, '/css/app.css', { Range: 'bytes=0-3' })
    expect([first.status, first.body.toString(), first.headers['content-range'], first.headers['content-length']]).toEqual([
      206,
      'body',
      `bytes 0-3/${CSS.length}`,
      '4',
    ])
    const tail = await send(server, '/logo.png', { Range: 'bytes=-4' })
    expect(tail.status).toBe(206)
    expect(tail.body.equals(PNG.subarray(-4))).toBe(true)
    const past = await send(server, '/css/app.css', { Range: 'bytes=500-600' })
    expect([past.status, past.headers['content-range']]).toEqual([416, `bytes */${CSS.length}`])
    // A stale If-Range: the whole file, not a piece of a version the client no longer has.
    const stale = await send(server, '/css/app.css', { Range: 'bytes=0-3', 'If-Range': 'W/"0-0"' })
    expect([stale.status, stale.body.toString()]).toEqual([200, CSS])
  })

  it('answers HEAD with the headers and no body', async () => {
    const head = await send(server, '/css/app.css', {}, 'HEAD')
    expect([head.status, head.headers['content-length'], head.body.length]).toEqual([200, String(CSS.length), 0])
  })

  it.each([
    ['a TypeScript source', '/index.ts'],
    ['a dotfile', '/.env'],
    ['an encoded dotfile', '/%2eenv'],
    ['a parent folder', '/../secret.txt'],
    ['an encoded parent folder', '/%2e%2e/secret.txt'],
    ['an encoded slash', '/..%2Fsecret.txt'],
    ['a parent folder below a folder', '/css/%2e%2e/%2e%2e/secret.txt'],
    ['a symlink that leads out', '/escape.txt'],
    ['a file that does not exist', '/missing.css'],
  ])('never serves %s (%s): the routes answer, here 404', async (_, path) => {
    const answer = await send(server, path)
    expect(answer.status).toBe(404)
    expect(answer.body.toString()).toBe('{"error":"Not Found"}')
  })

  it('follows a symlink that stays inside the folder, and leaves other methods and paths to the routes', async () => {
    expect((await send(server, '/alias.css')).body.toString()).toBe(CSS)
    expect((await send(server, '/hello')).body.toString()).toBe('{"message":"Hello, World!"}')
    const post = await send(server, '/css/app.css', {}, 'POST')
    expect([post.status, post.body.toString()]).toEqual([200, '{"route":"post"}'])
  })
})

describe.each(transports)('the router serves its public folder to requests no route takes, on $name', ({ open }) => {
  let app: OpenApp
  let withFallback: OpenApp
  let off: OpenApp

  beforeAll(async () => {
    const router = new Router(new Container()).publicFiles(join(base, 'public'))
    router.get('/logo.png', () => Response.json({ route: 'logo' }))
    app = await open(router)
    const spa = new Router(new Container()).publicFiles(join(base, 'public'))
    spa.fallback(() => Response.json({ fallback: true }, 404))
    withFallback = await open(spa)
    const none = new Router(new Container()).publicFiles(false)
    off = await open(none)
  })
  afterAll(async () => {
    await Promise.all([app.close(), withFallback.close(), off.close()])
  })

  it('answers a file with no middleware set up; a route for the same path wins', async () => {
    const css = await app.fetch('/css/app.css')
    expect([css.status, css.headers.get('content-type'), css.headers.get('etag') !== null, await css.text()]).toEqual([200, 'text/css; charset=utf-8', true, CSS])
    expect(await (await app.fetch('/logo.png')).json()).toEqual({ route: 'logo' })
    const docs = await app.fetch('/docs/')
    expect([docs.status, await docs.text(), docs.headers.get('x-frame-options')]).toEqual([200, '<h1>Docs</h1>', 'DENY'])
  })

  it.each(['/index.ts', '/.env', '/%2e%2e/secret.txt', '/escape.txt', '/missing.css'])('keeps %s private: 404', async (path) => {
    const answer = await app.fetch(path)
    expect([answer.status, await answer.text()]).toEqual([404, '{"error":"Not Found"}'])
  })

  it('tries the files before the fallback route, and serves none after publicFiles(false)', async () => {
    expect(await (await withFallback.fetch('/css/app.css')).text()).toBe(CSS)
    expect(await (await withFallback.fetch('/missing.css')).json()).toEqual({ fallback: true })
    expect((await off.fetch('/css/app.css')).status).toBe(404)
  })
})
