import { createHash } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { Container } from '../../src/container/Container.js'
import { docsOf } from '../../src/http/middlewareDocs.js'
import { MAINTENANCE_CHECK_MS } from '../../src/maintenance/maintenanceStatus.js'
import { bringUp, putDown, type MaintenanceState } from '../../src/maintenance/maintenanceTable.js'
import { maintenanceMode } from '../../src/middleware/maintenanceMode.js'
import { Router } from '../../src/routing/Router.js'
import type { RunningServer } from '../../src/server/listen.js'
import { serve } from '../../src/server/serve.js'
import { serveNode } from '../../src/server/serveNode.js'
import { databases, useNotesDatabase } from '../support/notesDatabase.js'
import { listenOn } from '../support/servers.js'

// Starting PostgreSQL for a block can take more than the default 10 s on a busy machine.
vi.setConfig({ hookTimeout: 60_000 })

const JSON_CLIENT = { accept: 'application/json' }
const BROWSER = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' }
const SECRET = 'let-me-in-1234'

/** Past the second each process trusts what it read: the next request reads the state again. */
const nextCheck = () => sleep(MAINTENANCE_CHECK_MS + 100)

describe.each(databases)('maintenanceMode on $name, over a real socket', ({ name }) => {
  const notes = useNotesDatabase(name)
  let server: RunningServer
  beforeAll(async () => {
    const router = new Router(Container.getInstance())
    router.use(maintenanceMode({ except: ['/health', '/webhooks/*'] }))
    router.get('/', () => ({ page: 'home' }))
    router.get('/health', () => ({ status: 'healthy' }))
    router.post('/webhooks/stripe', () => ({ received: true }))
    router.get('/dashboard', () => ({ page: 'dashboard' }))
    server = await listenOn(name === 'SQLite' ? serve : serveNode, router)
  })
  afterAll(() => server.close())
  afterEach(async () => {
    await bringUp(notes.database())
    await nextCheck()
  })

  const get = (path: string, headers: Record<string, string> = JSON_CLIENT) => fetch(`${server.url}${path}`, { headers, redirect: 'manual' })
  const down = async (state: Partial<MaintenanceState> = {}) => {
    expect(await putDown(notes.database(), { since: Date.now(), retry: 60, ...state })).toBe(true)
    await nextCheck()
  }

  it('answers as usual while up (no fw down yet): the first read makes the table, so that no later read fails', async () => {
    const response = await get('/')
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ page: 'home' })
    const tables = await notes.database().introspection.getTables()
    expect(tables.map((table) => table.name)).toContain('fw_maintenance')
  })

  it('while down: 503 JSON with Retry-After (and Refresh) for API clients, the 503 page for browsers; /health and the except paths answer', async () => {
    await down({ retry: 120, refresh: 15 })
    const api = await get('/dashboard')
    expect(api.status).toBe(503)
    expect(await api.json()).toEqual({ error: 'Service Unavailable' })
    expect(api.headers.get('retry-after')).toBe('120')
    expect(api.headers.get('refresh')).toBe('15')

    const page = await get('/dashboard', BROWSER)
    expect(page.status).toBe(503)
    expect(page.headers.get('content-type')).toMatch(/^text\/html/)
    expect(page.headers.get('retry-after')).toBe('120')
    expect(await page.text()).toContain('503')

    // A path no route takes answers 503 too, not 404: the app is down.
    expect((await get('/nowhere')).status).toBe(503)
    expect(await (await get('/health')).json()).toEqual({ status: 'healthy' })
    const webhook = await fetch(`${server.url}/webhooks/stripe`, { method: 'POST' })
    expect(webhook.status).toBe(200)

    await bringUp(notes.database())
    await nextCheck()
    expect((await get('/dashboard')).status).toBe(200)
  })

  it('serves the --render page to browsers, and JSON to API clients still', async () => {
    await down({ page: '<!doctype html><title>Back soon</title><h1>Back at 14:00</h1>' })
    const page = await get('/', BROWSER)
    expect(page.status).toBe(503)
    expect(await page.text()).toBe('<!doctype html><title>Back soon</title><h1>Back at 14:00</h1>')
    expect(page.headers.get('retry-after')).toBe('60')
    expect(page.headers.get('refresh')).toBeNull()
    expect(await (await get('/')).json()).toEqual({ error: 'Service Unavailable' })
  })

  it('/<secret> sets the bypass cookie and redirects to /; the cookie lets that browser through, a forged one does not', async () => {
    await down({ secretHash: createHash('sha256').update(SECRET).digest('hex') })
    expect((await get(`/not-the-secret`)).status).toBe(503)
    const opened = await get(`/${SECRET}`, BROWSER)
    expect(opened.status).toBe(302)
    expect(opened.headers.get('location')).toBe('/')
    const setCookie = opened.headers.get('set-cookie')!
    expect(setCookie).toMatch(/^fw_maintenance=\d+\.[\w-]{43}; Path=\/; Max-Age=43200; HttpOnly; SameSite=Lax$/)
    const cookie = setCookie.split(';')[0]!

    const through = await get('/dashboard', { ...JSON_CLIENT, cookie })
    expect(through.status).toBe(200)
    expect(await through.json()).toEqual({ page: 'dashboard' })
    const [expires] = cookie.slice('fw_maintenance='.length).split('.')
    expect((await get('/dashboard', { cookie: `fw_maintenance=${Number(expires) + 3600}.${'A'.repeat(43)}` })).status).toBe(503)
    expect((await get('/dashboard')).status).toBe(503)

    // A new fw down --secret makes the old cookies worthless.
    await bringUp(notes.database())
    await down({ secretHash: createHash('sha256').update('another-secret-5678').digest('hex') })
    expect((await get('/dashboard', { cookie })).status).toBe(503)
  })
})

describe('maintenanceMode', () => {
  it('refuses an except path it cannot match, at the call', () => {
    expect(() => maintenanceMode({ except: ['health'] })).toThrow('maintenanceMode({ except: ["health"] }): give a path ("/health") or a path and every path below it ("/status/*")')
    expect(() => maintenanceMode({ except: ['/a/*/b'] })).toThrow('maintenanceMode({ except: ["/a/*/b"] })')
  })

  it('declares its 503 with Retry-After for the OpenAPI document', () => {
    expect(docsOf(maintenanceMode())?.responses?.[503]).toEqual({
      description: 'Down for maintenance (fw down)',
      headers: { 'Retry-After': 'Seconds to wait before trying again' },
    })
  })
})
