// Responses held to their contract (issue 38): a route's .returns(status, schema) checks its handler's JSON in
// development and tests, and shapes it in production, over a real socket, with rows from a real SQLite file.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Kysely } from 'kysely'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { Container } from '../../src/container/Container.js'
import { createDatabase } from '../../src/database/createDatabase.js'
import { HttpError } from '../../src/http/HttpError.js'
import { Response } from '../../src/http/Response.js'
import { Router } from '../../src/routing/Router.js'
import { readJson, transports, type OpenApp } from '../support/servers.js'

const folder = mkdtempSync(join(tmpdir(), 'fw-returns-'))
let db: Kysely<any>

const Author = z.object({ id: z.number().int(), name: z.string() })
const Authors = z.object({ authors: z.array(Author) })
const Created = z.object({ author: Author })

beforeAll(async () => {
  db = createDatabase(`sqlite:${join(folder, 'authors.sqlite')}`)
  await db.schema
    .createTable('authors')
    .addColumn('id', 'integer', (column) => column.primaryKey())
    .addColumn('name', 'varchar(255)', (column) => column.notNull())
    .addColumn('email', 'varchar(255)', (column) => column.notNull())
    .addColumn('is_admin', 'boolean', (column) => column.notNull())
    .addColumn('created_at', 'varchar(32)', (column) => column.notNull())
    .execute()
  await db
    .insertInto('authors')
    .values([
      { id: 1, name: 'Ada', email: 'ada@example.com', is_admin: 1, created_at: '2026-11-29T10:00:00Z' },
      { id: 2, name: 'Grace', email: 'grace@example.com', is_admin: 0, created_at: '2026-11-29T11:00:00Z' },
    ])
    .execute()
})
afterAll(async () => {
  await db.destroy()
  rmSync(folder, { recursive: true, force: true })
})

const rows = () => db.selectFrom('authors').selectAll().orderBy('id').execute()
const ONLY_DECLARED = { authors: [{ id: 1, name: 'Ada' }, { id: 2, name: 'Grace' }] }

/** The routes both modes answer, on a router committed in the mode asked for. */
function authorsRouter(production: boolean, log: { error: (message: string, ...details: unknown[]) => void }): Router {
  vi.stubEnv('NODE_ENV', production ? 'production' : 'test')
  try {
    const router = new Router(new Container(), { debug: true, logger: log })
    router.get('/authors', async () => ({ authors: await rows() })).returns(200, Authors)
    router.get('/authors-response', async () => Response.json({ authors: await rows() })).returns(200, Authors)
    router.post('/authors', async () => Response.json({ author: (await rows())[0] }, 201)).returns(201, Created).returns(422)
    router.get('/wrong-type', async () => ({ authors: (await rows()).map((row) => ({ ...row, id: `#${row.id}` })) })).returns(200, Authors)
    router.get('/missing-name', () => ({ authors: [{ id: 3 }] })).returns(200, Authors)
    router.get('/undeclared-status', async () => Response.json({ author: (await rows())[0] }, 201)).returns(200, Created)
    router.get('/error', () => {
      throw new HttpError(404, 'No such author')
    }).returns(200, Authors)
    router.get('/page', () => Response.html('<h1>Authors</h1>')).returns(200, Authors)
    router.get('/plain', async () => ({ authors: await rows() }))
    // A schema with no JSON Schema (zod has none for a Date): checked in development, sent as it is in production.
    router.get('/no-json-schema', async () => ({ authors: await rows() })).returns(200, z.object({ authors: z.array(z.object({ id: z.string(), seen: z.date().optional() })) }))
    router.commit()
    return router
  } finally {
    vi.unstubAllEnvs()
  }
}

describe.each(transports)('.returns() on $name', ({ open }) => {
  const logs = { production: [] as string[], development: [] as string[] }
  let production: OpenApp
  let development: OpenApp

  beforeAll(async () => {
    production = await open(authorsRouter(true, { error: (message, ...details) => logs.production.push([message, ...details].map(String).join(' ')) }))
    development = await open(authorsRouter(false, { error: (message, ...details) => logs.development.push([message, ...details].map(String).join(' ')) }))
  })
  afterAll(async () => {
    await production.close()
    await development.close()
  })

  const answer = async (app: OpenApp, path: string, method = 'GET') => {
    const response = await app.fetch(path, { method })
    return [response.status, response.headers.get('content-type'), await readJson(response)]
  }

  it('sends only the declared properties in production: whole rows become { id, name }', async () => {
    for (const path of ['/authors', '/authors-response']) {
      expect(await answer(production, path)).toEqual([200, 'application/json', ONLY_DECLARED])
    }
    expect(await answer(production, '/authors', 'POST')).toEqual([201, 'application/json', { author: { id: 1, name: 'Ada' } }])
    // A route without .returns() sends what its handler gave.
    const [, , plain] = await answer(production, '/plain')
    expect(plain.authors[0]).toEqual({ id: 1, name: 'Ada', email: 'ada@example.com', is_admin: true, created_at: '2026-11-29T10:00:00Z' })
  })

  it('gives the same shaped answer in development once the check passes', async () => {
    for (const path of ['/authors', '/authors-response']) {
      expect(await answer(development, path)).toEqual([200, 'application/json', ONLY_DECLARED])
    }
    expect(await answer(development, '/authors', 'POST')).toEqual([201, 'application/json', { author: { id: 1, name: 'Ada' } }])
  })

  it('fails loudly in development on a wrong type: a 500 naming the route, the status and the field, in the body and the log', async () => {
    logs.development.length = 0
    const [status, , body] = await answer(development, '/wrong-type')
    expect(status).toBe(500)
    expect(body.error).toMatch(/^GET \/wrong-type answered 200 outside its declared schema \(\.returns\(200, …\)\): authors\.0\.id: .*number/)
    expect(body.error).toContain('authors.1.id')
    expect(logs.development.join('\n')).toMatch(/GET \/wrong-type.*answered 200 outside its declared schema.*authors\.0\.id/)
    const [missing, , missingBody] = await answer(development, '/missing-name')
    expect([missing, missingBody.error]).toEqual([500, expect.stringMatching(/^GET \/missing-name answered 200 outside its declared schema .*authors\.0\.name: /)])
  })

  it('fails in development on a 2xx status the route does not declare, and lets production send it', async () => {
    const [status, , body] = await answer(development, '/undeclared-status')
    expect([status, body.error]).toEqual([500, 'GET /undeclared-status answered 201, a status it does not declare: it declares 200 (add .returns(201, …))'])
    expect((await answer(production, '/undeclared-status'))[0]).toBe(201)
  })

  it('checks a schema without JSON Schema in development, and sends its answer as it is in production', async () => {
    const [status, , body] = await answer(development, '/no-json-schema')
    expect([status, body.error]).toEqual([500, expect.stringMatching(/^GET \/no-json-schema answered 200 outside its declared schema .*authors\.0\.id: /)])
    const [productionStatus, , sent] = await answer(production, '/no-json-schema')
    expect([productionStatus, Object.keys(sent.authors[0]).sort()]).toEqual([200, ['created_at', 'email', 'id', 'is_admin', 'name']])
  })

  it('leaves errors and pages alone in both modes', async () => {
    for (const app of [production, development]) {
      expect(await answer(app, '/error')).toEqual([404, 'application/json', { error: 'No such author' }])
      const page = await app.fetch('/page')
      expect([page.status, await page.text()]).toEqual([200, '<h1>Authors</h1>'])
    }
  })

  it('answers 500 in production when the JSON cannot take the declared shape, and logs the route and the status', async () => {
    logs.production.length = 0
    const [status, , body] = await answer(production, '/missing-name')
    expect([status, body]).toEqual([500, { error: 'Internal Server Error' }])
    expect(logs.production.join('\n')).toMatch(/GET \/missing-name answered 200 that does not fit its declared schema.*"name" is required/)
  })
})
