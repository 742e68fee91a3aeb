import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { chromium } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import { Container } from '../../src/container/Container.js'
import { Router } from '../../src/routing/Router.js'
import type { RunningServer } from '../../src/server/listen.js'
import { serve } from '../../src/server/serve.js'
import { listenOn } from '../support/servers.js'

const saved = { NODE_ENV: process.env.NODE_ENV, APP_ENV: process.env.APP_ENV, OPENAPI: process.env.OPENAPI }
let running: RunningServer | undefined

afterEach(async () => {
  await running?.close()
  running = undefined
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key]
    else process.env[key] = value
  }
})

/** An app with two routes, on a real socket; the router reads the environment when it is made. */
async function start(env: Record<string, string> = {}): Promise<string> {
  Object.assign(process.env, env)
  const router = new Router(new Container())
  router.get('/tasks', () => [{ id: 1 }]).name('tasks.index')
  router.post('/tasks', () => ({ id: 2 })).name('tasks.store')
  running = await listenOn(serve, router)
  return running.url
}

describe('GET /docs', () => {
  it('serves the page outside production: no URL of another origin, the strict CSP, pointing at /openapi.json', async () => {
    const url = await start()
    const res = await fetch(`${url}/docs`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    const html = await res.text()
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//)
    expect(html).not.toMatch(/cdn|unpkg|jsdelivr/i)
    expect(html).toContain('<script src="/docs/assets/swagger-ui-bundle.js"></script>')
    expect(html).not.toMatch(/<script>/)
    const csp = res.headers.get('content-security-policy')!
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("script-src 'self';")
    expect(csp).toContain("connect-src 'self'")
    expect(csp).toContain("frame-ancestors 'none'")
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    const script = await (await fetch(`${url}/docs/assets/start.js`)).text()
    expect(script).toContain('url: "/openapi.json"')
  })

  it('serves swagger-ui-dist\'s own files with their content types, and no other file of the package', async () => {
    const url = await start()
    const bundle = await fetch(`${url}/docs/assets/swagger-ui-bundle.js`)
    expect(bundle.status).toBe(200)
    expect(bundle.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    const file = createRequire(import.meta.url).resolve('swagger-ui-dist/swagger-ui-bundle.js')
    expect(await bundle.text()).toBe(readFileSync(file, 'utf8'))

    const icon = await fetch(`${url}/docs/assets/favicon-32x32.png`)
    expect([icon.status, icon.headers.get('content-type')]).toEqual([200, 'image/png'])

    const css = await fetch(`${url}/docs/assets/swagger-ui.css`)
    expect(css.status).toBe(200)
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8')
    expect((await css.text()).length).toBeGreaterThan(10_000)

    const head = await fetch(`${url}/docs/assets/swagger-ui.css`, { method: 'HEAD' })
    expect(head.status).toBe(200)

    // The package's index.html points at the petstore; package.json and the rest are not the page's.
    for (const other of ['index.html', 'package.json', 'swagger-initializer.js', '../package.json', 'nope.js']) {
      expect((await fetch(`${url}/docs/assets/${other}`)).status).toBe(404)
    }
    expect((await fetch(`${url}/docs`, { method: 'POST' })).status).toBe(404)
  })

  it('is a 404 in production, page and files, and served there with OPENAPI=true', async () => {
    let url = await start({ NODE_ENV: 'production' })
    expect((await fetch(`${url}/docs`)).status).toBe(404)
    expect((await fetch(`${url}/docs/assets/swagger-ui-bundle.js`)).status).toBe(404)
    expect((await fetch(`${url}/openapi.json`)).status).toBe(404)
    await running!.close()
    running = undefined

    url = await start({ NODE_ENV: 'production', OPENAPI: 'true' })
    expect((await fetch(`${url}/docs`)).status).toBe(200)
    expect((await fetch(`${url}/docs/assets/swagger-ui-bundle.js`)).status).toBe(200)
  })

  it('leaves /docs to a route of the application that takes it', async () => {
    const router = new Router(new Container())
    router.get('/docs', () => ({ mine: true }))
    running = await listenOn(serve, router)
    expect(await (await fetch(`${running.url}/docs`)).json()).toEqual({ mine: true })
  })

  it.skipIf(!existsSync('/usr/bin/chromium'))('renders the operations in a browser, offline, with no CSP violation', async () => {
    const url = await start()
    const browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    })
    try {
      const page = await browser.newPage()
      const problems: string[] = []
      const elsewhere: string[] = []
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text())
      })
      page.on('pageerror', (error) => problems.push(error.message))
      page.on('response', (response) => {
        if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`)
      })
      page.on('request', (request) => {
        if (!request.url().startsWith(url) && !request.url().startsWith('data:')) elsewhere.push(request.url())
      })
      await page.goto(`${url}/docs`)
      await page.waitForSelector('.opblock-summary-path', { timeout: 15_000 })
      const operations = await page.locator('.opblock-summary').allInnerTexts()
      expect(operations.join('\n')).toMatch(/GET\s*\n?\s*\/tasks/)
      expect(operations.join('\n')).toMatch(/POST\s*\n?\s*\/tasks/)
      expect(problems).toEqual([])
      expect(elsewhere).toEqual([])
    } finally {
      await browser.close()
    }
  }, 30_000)
})
