import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Container } from '../../src/container/Container.js'
import { Response } from '../../src/http/Response.js'
import { cors } from '../../src/middleware/cors.js'
import { Router } from '../../src/routing/Router.js'
import { transports, type OpenApp } from '../support/servers.js'

const APP = 'https://app.example.test'

describe.each(transports)('cors on $name', ({ open: openApp }) => {
  let open: OpenApp
  let strict: OpenApp

  beforeAll(async () => {
    const anyOrigin = new Router(new Container())
    anyOrigin.use(cors())
    anyOrigin.get('/tasks', () => Response.json({ tasks: [] }))
    open = await openApp(anyOrigin)

    const named = new Router(new Container())
    named.use(cors({ origin: [APP], credentials: true, headers: ['Content-Type', 'X-API-Key'], exposeHeaders: ['X-Total-Count'], maxAge: 60 }))
    named.get('/tasks', () => Response.json({ tasks: [] }).setHeader('X-Total-Count', '0'))
    named.post('/tasks', () => Response.json({ created: true }, 201))
    strict = await openApp(named)
  })
  afterAll(async () => {
    await open.close()
    await strict.close()
  })

  it('answers any origin with * by default, and sends nothing to a request without Origin', async () => {
    const cross = await open.fetch('/tasks', { headers: { Origin: 'https://anywhere.test' } })
    expect(cross.headers.get('access-control-allow-origin')).toBe('*')
    expect(cross.headers.get('vary')).toBe(null)
    const plain = await open.fetch('/tasks')
    expect(plain.headers.get('access-control-allow-origin')).toBe(null)
  })

  it('answers a preflight itself with 204 and what it allows', async () => {
    const preflight = await strict.fetch('/tasks', {
      method: 'OPTIONS',
      headers: { Origin: APP, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
    })
    expect(preflight.status).toBe(204)
    expect(Object.fromEntries([...preflight.headers].filter(([name]) => name.startsWith('access-control') || name === 'vary'))).toEqual({
      'access-control-allow-origin': APP,
      'access-control-allow-credentials': 'true',
      'access-control-allow-methods': 'GET, HEAD, POST, PUT, PATCH, DELETE',
      'access-control-allow-headers': 'Content-Type, X-API-Key',
      'access-control-max-age': '60',
      vary: 'Origin',
    })
  })

  it('names the allowed origin, with credentials and exposed headers, on real requests', async () => {
    const created = await strict.fetch('/tasks', { method: 'POST', headers: { Origin: APP } })
    expect(created.status).toBe(201)
    expect(created.headers.get('access-control-allow-origin')).toBe(APP)
    expect(created.headers.get('access-control-allow-credentials')).toBe('true')
    const listed = await strict.fetch('/tasks', { headers: { Origin: APP } })
    expect(listed.headers.get('access-control-expose-headers')).toBe('X-Total-Count')
  })

  it('gives an origin that is not allowed no CORS headers, and its preflight only the plain OPTIONS answer', async () => {
    const other = await strict.fetch('/tasks', { headers: { Origin: 'https://evil.test' } })
    expect(other.status).toBe(200)
    expect(other.headers.get('access-control-allow-origin')).toBe(null)
    const preflight = await strict.fetch('/tasks', { method: 'OPTIONS', headers: { Origin: 'https://evil.test', 'Access-Control-Request-Method': 'POST' } })
    expect([preflight.status, preflight.headers.get('allow'), preflight.headers.get('access-control-allow-origin')]).toEqual([204, 'GET, HEAD, OPTIONS, POST', null])
  })

  it('refuses credentials with any origin when it is set up', () => {
    expect(() => cors({ credentials: true })).toThrow("cors: credentials need the allowed origins named (origin: ['https://…']), never '*'")
  })
})
