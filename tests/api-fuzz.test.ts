// The API document tells the whole truth: a property-based fuzz that reads only /openapi.json (tests/support/apiFuzz.ts)
// first shows that it catches what it must (a router in this process whose routes break the document on purpose),
// then finds nothing in a new api app with make:auth and make:dash (whose pages stay out of the document): compiled
// from dist/ on SQLite, under the development entry on PostgreSQL.
import { readFileSync } from 'node:fs'
import { createConfig, lintFromString } from '@redocly/openapi-core'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Container, openApiDocument, Response, Router, serveNode } from 'fw-runtime'
import { startPostgres, type TestPostgres } from '../runtime/test/support/postgres.js'
import { fuzzApi, type FuzzReport } from './support/apiFuzz.js'
import { installedApp, type InstalledApp } from './support/installedApp.js'
import type { RunningApp } from './support/process.js'

const PASSWORD = 'correct horse battery staple'
const Thing = z.object({ id: z.number().int(), name: z.string() })
const NewThing = z.object({ name: z.string().min(2).max(40), size: z.number().int().min(1).max(10).optional() })
const NotFound = z.object({ error: z.string() })

/** A small API that keeps its document, and the ways one can break it. */
function thingsRouter(breakage: { undocumentedStatus?: boolean; acceptsAnything?: boolean; keepsDeleted?: boolean } = {}): Router {
  const things = new Map<number, { id: number; name: string }>()
  let next = 1
  const router = new Router(new Container())
  router.post('/things', async (request) => {
    const { name } = breakage.acceptsAnything ? { name: String((request.body() as { name?: unknown } | null)?.name ?? '?') } : await request.validate(NewThing)
    if (breakage.undocumentedStatus && name.length > 8) return Response.json({ error: 'too long for a teapot' }, 418)
    const thing = { id: next++, name }
    things.set(thing.id, thing)
    return Response.json({ thing }, 201)
  }).body(NewThing).returns(201, z.object({ thing: Thing })).returns(422, undefined, 'The body is not a valid thing')
  router.get('/things/{id}', (_request, id) => {
    const thing = things.get(Number(id))
    return thing ? { thing } : Response.json({ error: 'Not Found' }, 404)
  }).where('id', /\d+/).returns(200, z.object({ thing: Thing })).returns(404, NotFound)
  router.delete('/things/{id}', (_request, id) => {
    if (!things.has(Number(id))) return Response.json({ error: 'Not Found' }, 404)
    if (!breakage.keepsDeleted) things.delete(Number(id))
    return new Response('', 204)
  }).where('id', /\d+/).returns(204).returns(404, NotFound)
  return router.commit()
}

async function fuzzRouter(router: Router, only?: string[]): Promise<FuzzReport> {
  const server = await serveNode(router, { port: 0, host: '127.0.0.1', handleSignals: false })
  try {
    const document = openApiDocument(router.getRoutes(), { title: 'things', version: '1.0.0' })
    return await fuzzApi({ url: server.url, document, credentials: {}, runs: 30, seed: 42, ...(only ? { only } : {}) })
  } finally {
    await server.close()
  }
}

describe('the document-only fuzz', () => {
  it('finds nothing in an API that keeps its document', async () => {
    const report = await fuzzRouter(thingsRouter())
    expect(report.failures).toEqual([])
    expect(report.requests).toBeGreaterThan(100)
  })

  it('fails when a route answers a status its document omits', async () => {
    const report = await fuzzRouter(thingsRouter({ undocumentedStatus: true }), ['POST /things'])
    expect(report.failures.join('\n')).toMatch(/^POST \/things \(valid\): POST \/things .* → 418: status 418 is not documented/m)
  })

  it('fails when a route accepts input its schema refuses', async () => {
    const report = await fuzzRouter(thingsRouter({ acceptsAnything: true }), ['POST /things'])
    expect(report.failures.join('\n')).toMatch(/^POST \/things \(invalid, body: .*\): .* → 201: invalid input accepted/m)
  })

  it('fails when a deleted resource can still be read', async () => {
    const report = await fuzzRouter(thingsRouter({ keepsDeleted: true }))
    expect(report.failures).toEqual([
      expect.stringMatching(/^POST \/things → GET \/things\/\{id\} → DELETE \/things\/\{id\}: GET \/things\/\d+ after deleting it answered 200, not 404/),
      expect.stringMatching(/: DELETE \/things\/\d+ a second time answered 204, not 404$/),
    ])
  })
})

/** Registers a user and signs in for a bearer token, as an API client does. */
async function bearerToken(url: string): Promise<string> {
  const email = `fuzz-${Date.now()}@example.com`
  const json = { 'Content-Type': 'application/json', Accept: 'application/json' }
  const registered = await fetch(`${url}/register`, { method: 'POST', headers: json, body: JSON.stringify({ name: 'Fuzz', email, password: PASSWORD, password_confirmation: PASSWORD }) })
  expect(registered.status).toBe(202)
  const login = await fetch(`${url}/login`, { method: 'POST', headers: json, body: JSON.stringify({ email, password: PASSWORD }) })
  expect(login.status).toBe(200)
  return ((await login.json()) as { token: string }).token
}

async function fuzzApp(app: InstalledApp, server: RunningApp, document: Record<string, any>): Promise<FuzzReport> {
  const token = await bearerToken(server.url)
  return fuzzApi({
    url: server.url,
    document,
    credentials: {
      bearerAuth: { Authorization: `Bearer ${token}` },
      apiKey: { 'X-API-Key': app.env().API_KEY! },
    },
    runs: 15,
    seed: 20261129,
    // Valid input that the application refuses for what it is, not for its shape: wrong credentials, an unknown
    // or expired reset token, a current password that does not match; and the seed's sample route, whose 400 for an
    // id that is not a number its document gives.
    refusals: { 'POST /login': [422], 'POST /reset-password': [422], 'POST /password': [422], 'GET /users/{id}': [400] },
    // The seed's sample users echo what they are sent and store nothing (GET /users/{id} answers any number).
    unstored: ['/users'],
    // It ends the session the rest of the run signs in with.
    exclude: ['POST /logout'],
  })
}

describe('a new api app with make:auth and make:dash, fuzzed from its document alone', () => {
  let app: InstalledApp
  const servers: RunningApp[] = []
  let postgres: TestPostgres | undefined

  beforeAll(async () => {
    app = await installedApp({ template: 'api' })
    await app.runOk('npx', ['fw', 'make:auth'])
    await app.runOk('npx', ['fw', 'make:dash', 'Admin'])
    await app.runOk('npx', ['fw', 'migrate'])
  })
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()))
    postgres?.stop()
  })

  it('on SQLite, compiled as npm start runs it: no 5xx, no undocumented status, no answer outside its schema', async () => {
    await app.runOk('npx', ['fw', 'openapi', '--out', 'openapi.json'])
    const document = JSON.parse(readFileSync(join(app.dir, 'openapi.json'), 'utf8'))
    expect(Object.keys(document.paths)).toContain('/login')
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/admin'))).toEqual([])
    // Redocly's recommended rules over the app's own document: every operation names its credentials and its 4xx.
    const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: 'openapi.json', config: await createConfig({ extends: ['recommended'] }) })
    expect(problems.filter((problem) => ['security-defined', 'operation-4xx-response'].includes(problem.ruleId)).map((problem) => problem.location[0]?.pointer)).toEqual([])
    await app.runOk('npm', ['run', 'build'])
    const server = await app.start(['node', 'dist/public/index.js'])
    servers.push(server)
    const report = await fuzzApp(app, server, document)
    expect(report.failures, `seed ${report.seed}, ${report.requests} requests`).toEqual([])
  })

  it('on PostgreSQL, from the document the development server serves', async () => {
    postgres = await startPostgres()
    const env = { DATABASE_URL: postgres.url }
    await app.runOk('npx', ['fw', 'migrate'], { env })
    const server = await app.start(undefined, env)
    servers.push(server)
    const document = (await (await fetch(`${server.url}/openapi.json`)).json()) as Record<string, any>
    const report = await fuzzApp(app, server, document)
    expect(report.failures, `seed ${report.seed}, ${report.requests} requests`).toEqual([])
  })
})
