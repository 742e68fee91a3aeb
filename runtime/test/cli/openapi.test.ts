import { cpSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { validate as validateOpenApi } from '@readme/openapi-parser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFwApp, startFw, until, type FwApp, type RunningFw } from '../support/fwApp.js'
import { freePort } from '../support/freePort.js'
import { sampleOf, wrongTypeFor } from '../support/jsonSchemaSample.js'

const repository = fileURLToPath(new URL('../../../', import.meta.url))

const ROUTES = [
  "import { Route } from 'fw-runtime'",
  "import { z } from 'zod'",
  '',
  "Route.get('/', () => ({ status: 'running' })).name('home')",
  "Route.post('/notes', async (request) => ({ note: await request.validate() })).body(z.object({ text: z.string() }))",
  '',
].join('\n')

/** An app whose node_modules has zod beside the linked fw-runtime, as a new application's has. */
function appWithZod(): FwApp {
  const app = createFwApp()
  symlinkSync(join(repository, 'node_modules/zod'), join(app.dir, 'node_modules/zod'), 'dir')
  return app
}

describe('fw openapi', () => {
  let app: FwApp

  beforeAll(() => {
    app = appWithZod()
    app.write('routes/web.ts', ROUTES)
    app.write('.env', 'APP_URL=https://notes.example.com/\n')
  })
  afterAll(() => app.remove())

  it('writes the document to --out, valid, with package.json\'s name as its title', async () => {
    const result = await app.fw(['openapi', '--out', 'docs/openapi.json'])
    expect(result.stderr).toBe('')
    expect(result.stdout).toBe('Wrote docs/openapi.json: 2 routes.\n')
    expect(result.code).toBe(0)
    const document = JSON.parse(app.read('docs/openapi.json'))
    expect(document.info).toEqual({ title: 'fw-test-app', version: '0.0.0' })
    expect(document.servers).toEqual([{ url: 'https://notes.example.com' }])
    expect(document.paths['/notes'].post.requestBody.content['application/json'].schema.required).toEqual(['text'])
    const verdict = await validateOpenApi(document)
    expect(verdict.valid ? [] : verdict.errors).toEqual([])
  })

  it('--check exits 0 when the file is up to date, and 1 with a clear line when it is stale or missing', async () => {
    expect(await app.fw(['openapi', '--out', 'docs/openapi.json', '--check'])).toMatchObject({
      code: 0,
      stdout: 'docs/openapi.json is up to date (2 routes).\n',
    })

    app.write('routes/web.ts', `${ROUTES}Route.get('/later', () => ({}))\n`)
    const stale = await app.fw(['openapi', '--out', 'docs/openapi.json', '--check'])
    expect(stale.code).toBe(1)
    expect(stale.stderr).toContain("docs/openapi.json is stale: the routes' document differs from it; run fw openapi --out docs/openapi.json to write it again")

    const missing = await app.fw(['openapi', '--check'])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('openapi.json does not exist: run fw openapi to write it')
    expect(app.files('.')).not.toContain('openapi.json')
  })
})

describe('the minimal starter\'s document', () => {
  it('is valid, with its one route', async () => {
    const app = appWithZod()
    try {
      for (const folder of ['App', 'routes']) cpSync(join(repository, 'template/minimal', folder), join(app.dir, folder), { recursive: true })
      expect(await app.fw(['openapi'])).toMatchObject({ code: 0, stderr: '' })
      const document = JSON.parse(app.read('openapi.json'))
      const verdict = await validateOpenApi(structuredClone(document))
      expect(verdict.valid ? [] : verdict.errors).toEqual([])
      expect(document.paths).toEqual({
        '/': {
          get: {
            operationId: 'HomeController.index',
            tags: ['Home'],
            description: 'Handled by HomeController@index.',
            responses: {
              '200': {
                description: 'The framework is running',
                content: {
                  'application/json': {
                    schema: {
                      type: 'object',
                      properties: { name: { type: 'string' }, status: { type: 'string' }, message: { type: 'string' } },
                      required: ['name', 'status', 'message'],
                      additionalProperties: false,
                    },
                  },
                },
              },
              '400': { $ref: '#/components/responses/BadRequest' },
              '413': { $ref: '#/components/responses/PayloadTooLarge' },
            },
          },
        },
      })
    } finally {
      app.remove()
    }
  })
})

describe('the api starter\'s document', () => {
  let app: FwApp
  let server: RunningFw
  let url: string
  let document: any

  beforeAll(async () => {
    app = appWithZod()
    // The task API is on its table: the starter's migration and the factory its model names come along.
    for (const folder of ['App', 'routes', 'database']) cpSync(join(repository, 'template/api', folder), join(app.dir, folder), { recursive: true })
    expect((await app.fw(['migrate'])).stderr).toBe('')
    const written = await app.fw(['openapi'])
    expect(written.stderr).toBe('')
    document = JSON.parse(app.read('openapi.json'))
    const port = await freePort()
    server = startFw(app.dir, ['serve:node', `--port=${port}`], { API_KEY: 'secret-key' })
    await until(() => /listening on/.test(server.output()), 'the starter to listen')
    url = `http://127.0.0.1:${port}`
  }, 60_000)
  afterAll(async () => {
    server?.child.kill('SIGTERM')
    await server?.exited
    app?.remove()
  })

  const send = (method: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(url + path, { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })

  it('is valid, and is what GET /openapi.json serves', async () => {
    const verdict = await validateOpenApi(structuredClone(document))
    expect(verdict.valid ? [] : verdict.errors).toEqual([])
    expect(await (await fetch(`${url}/openapi.json`)).json()).toEqual(document)
    expect(document.paths['/api/tasks/{id}'].get.parameters).toEqual([{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }])
    expect(document.paths['/api/data'].get.parameters[0]).toMatchObject({ name: 'format', in: 'query', required: false })
  })

  it('accepts a sample of each validated body, and answers 422 naming a required field dropped or of the wrong type', async () => {
    for (const [method, path] of [['POST', '/api/tasks'], ['PUT', '/api/tasks/{id}']] as const) {
      const schema = document.paths[path][method.toLowerCase()].requestBody.content['application/json'].schema
      const target = path.replace('{id}', '1')
      const sample = sampleOf(schema, document) as Record<string, unknown>
      expect((await send(method, target, sample)).status, `${method} ${path}`).toBeLessThan(300)
      // Every field of these bodies has a default: none is required, so a wrong type is what a 422 can name.
      for (const field of Object.keys(schema.properties)) {
        const wrong = await send(method, target, { ...sample, [field]: wrongTypeFor(schema.properties[field], document) })
        expect(wrong.status, `${method} ${path} with ${field} of the wrong type`).toBe(422)
        expect(Object.keys(((await wrong.json()) as any).errors)).toEqual([field])
      }
    }
  })

  it('names operations by their controllers\' files, and tags them with the folder where two controllers share a name', () => {
    expect(document.paths['/api/users'].post).toMatchObject({ operationId: 'Api.UserController.store', tags: ['Api/User'] })
    expect(document.paths['/users'].post).toMatchObject({ operationId: 'UserController.store', tags: ['User'] })
    expect(document.paths['/api/tasks'].post).toMatchObject({ operationId: 'Api.TaskController.store', tags: ['Task'] })
  })

  it('POST /api/users: its contract documents the body and keeps the handler\'s order, 400, then 422, then 401', async () => {
    const operation = document.paths['/api/users'].post
    expect(Object.keys(operation.responses)).toEqual(['201', '400', '401', '413', '422'])
    // The body contract's 422 and checkNewUser's (an `Error`): a client expects either.
    expect(operation.responses['422']).toEqual({
      description: 'The given data was invalid; or: The name is not text, or the email is not an email',
      content: { 'application/json': { schema: { anyOf: [{ $ref: '#/components/schemas/ValidationError' }, { $ref: '#/components/schemas/Error' }] } } },
    })
    const sample = sampleOf(operation.requestBody.content['application/json'].schema, document) as Record<string, unknown>
    expect((await send('POST', '/api/users', sample, { 'X-API-Key': 'secret-key' })).status).toBe(201)
    expect((await send('POST', '/api/users', { ...sample, email: 'not-an-email', name: undefined })).status).toBe(400)
    expect((await send('POST', '/api/users', { ...sample, email: 'not-an-email' })).status).toBe(422)
    expect((await send('POST', '/api/users', sample)).status).toBe(401)
  })
})
