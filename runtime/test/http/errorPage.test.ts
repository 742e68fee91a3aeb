import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { Container } from '../../src/container/Container.js'
import { HttpError } from '../../src/http/HttpError.js'
import { Response } from '../../src/http/Response.js'
import { Router } from '../../src/routing/Router.js'
import { transports, type OpenApp } from '../support/servers.js'

const BROWSER = { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' }

function app(debug: boolean): Router {
  const router = new Router(new Container(), { debug })
  router.get('/page', () => Response.html('<p>ok</p>'))
  router.get('/slow-down', () => {
    throw new HttpError(429, 'Too Many Requests', { headers: { 'Retry-After': '30' } })
  })
  router.get('/teapot', () => {
    throw new HttpError(418, 'This server brews <tea> only')
  })
  router.get('/broken', () => {
    throw new Error('database password is hunter2')
  })
  router.post('/form', () => Response.json({})).middleware('session', 'csrf')
  return router
}

describe.each(transports)('error pages on $name', ({ open: openApp }) => {
  let server: OpenApp
  let debugServer: OpenApp

  beforeAll(async () => {
    process.env.APP_KEY ??= 'base64:' + Buffer.alloc(32, 5).toString('base64')
    server = await openApp(app(false))
    debugServer = await openApp(app(true))
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
  })
  afterAll(async () => {
    vi.restoreAllMocks()
    await server.close()
    await debugServer.close()
  })

  it.each([
    ['GET', '/nowhere', 404, 'Not Found', 'does not exist'],
    ['DELETE', '/page', 405, 'Method Not Allowed', 'cannot be reached that way'],
    ['POST', '/form', 419, 'Page Expired', 'page expired'],
    ['GET', '/slow-down', 429, 'Too Many Requests', 'wait a moment'],
    ['GET', '/broken', 500, 'Internal Server Error', 'went wrong on our side'],
  ])('a browser gets an HTML page for %s %s (%i)', async (method, path, status, title, sentence) => {
    const response = await server.fetch(path, { method, headers: BROWSER })
    const page = await response.text()
    expect([response.status, response.headers.get('content-type')]).toEqual([status, 'text/html; charset=utf-8'])
    expect(page).toContain(`<title>${status} ${title}</title>`)
    expect(page).toContain(sentence)
    expect(page).not.toContain('hunter2')
  })

  it('keeps the error headers on the page, and shows an application 4xx message escaped', async () => {
    expect((await server.fetch('/slow-down', { headers: BROWSER })).headers.get('retry-after')).toBe('30')
    expect((await server.fetch('/page', { method: 'DELETE', headers: BROWSER })).headers.get('allow')).toBe('GET, HEAD, OPTIONS')
    expect(await (await server.fetch('/teapot', { headers: BROWSER })).text()).toContain('This server brews &lt;tea&gt; only')
  })

  it('gives any other client the JSON error body', async () => {
    for (const accept of ['application/json', '*/*', 'text/html, application/json']) {
      const response = await server.fetch('/nowhere', { headers: { Accept: accept } })
      expect([response.status, await response.json()]).toEqual([404, { error: 'Not Found' }])
    }
  })

  it('with debug on, shows the message, the stack and the request, without credential headers', async () => {
    const response = await debugServer.fetch('/broken?x=1', { headers: { ...BROWSER, Cookie: 'fw_session=secret-cookie', 'X-Trace': 'abc' } })
    const page = await response.text()
    expect(response.status).toBe(500)
    expect(page).toContain('Error: database password is hunter2')
    expect(page).toContain('GET /broken?x=1')
    expect(page).toMatch(/errorPage\.test\.ts:\d+/)
    expect(page).toContain('x-trace')
    expect(page).not.toContain('secret-cookie')
  })
})
