// The OpenAPI document of an app made by fw make:auth: valid (@readme/openapi-parser), its bodies those of fw-runtime/auth's
// contracts, and true to the app over real HTTP on SQLite and PostgreSQL: a sample of each body is taken, and one with
// a required field dropped or of the wrong type is a 422 naming that field.
import type { ChildProcess } from 'node:child_process'
import { validate as validateOpenApi } from '@readme/openapi-parser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FwApp } from '../support/fwApp.js'
import { BACKENDS, generatedApp, startApp, stopApp } from '../support/generatedAuthApp.js'
import { sampleOf, wrongTypeFor } from '../support/jsonSchemaSample.js'

/** The routes with a body, in the order a client meets them: an account first, then its token for POST /password. */
const BODIES = ['/register', '/login', '/forgot-password', '/reset-password', '/password'] as const

describe('the document of an app made by fw make:auth', () => {
  let app: FwApp
  let document: any

  beforeAll(async () => {
    app = await generatedApp()
    const written = await app.fw(['openapi'])
    expect(written.stderr).toBe('')
    document = JSON.parse(app.read('openapi.json'))
  }, 60_000)
  afterAll(() => app?.remove())

  it('is valid, describes each auth body, and says which routes need a signed-in user', async () => {
    const verdict = await validateOpenApi(structuredClone(document))
    expect(verdict.valid ? [] : verdict.errors).toEqual([])
    const required = (path: string) => document.paths[path].post.requestBody.content['application/json'].schema.required
    expect(BODIES.map(required)).toEqual([
      ['name', 'email', 'password', 'password_confirmation'],
      ['email', 'password'],
      ['email'],
      ['token', 'email', 'password', 'password_confirmation'],
      ['current_password', 'password'],
    ])
    expect(document.paths['/register'].post.responses['422'].content['application/json'].schema).toBeDefined()
    expect(document.paths['/password'].post.responses['401']).toBeDefined()
    expect(document.paths['/login'].post.responses['401']).toBeUndefined()
  })

  it("says what each route's middleware answer and take, and passes Redocly's security-defined and operation-4xx-response", async () => {
    expect(document.paths['/me'].get.security).toEqual([{ bearerAuth: [] }, { sessionCookie: [] }])
    expect(document.paths['/password'].post.security).toEqual([{ bearerAuth: [] }, { sessionCookie: [], csrfToken: [] }])
    expect(document.paths['/password'].post.responses['419']).toBeDefined()
    expect(document.paths['/me'].get.responses['419']).toBeUndefined()
    expect(document.paths['/email/verify/{id}/{hash}'].get.responses['403'].description).toMatch(/signature/)
    expect(document.paths['/login'].post.security).toBeUndefined()
    expect(Object.keys(document.components.securitySchemes)).toEqual(['bearerAuth', 'sessionCookie', 'csrfToken'])
    const { createConfig, lintFromString } = await import('@redocly/openapi-core')
    const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: 'openapi.json', config: await createConfig({ extends: ['recommended'] }) })
    expect(problems.filter((problem) => ['security-defined', 'operation-4xx-response'].includes(problem.ruleId)).map((problem) => problem.location[0]?.pointer)).toEqual([])
  })

  describe.each(BACKENDS)('over HTTP, on $name', (backend) => {
    let server: { url: string; child: ChildProcess }
    let stopDatabase: () => void
    let token = ''
    let account: { email: string; password: string }

    beforeAll(async () => {
      const database = await backend.start()
      stopDatabase = database.stop
      const env = { ...database.env, QUEUE_DRIVER: 'sync', MAIL_MAILER: 'array' }
      expect((await app.fw(['migrate:fresh'], env)).stderr).toBe('')
      server = await startApp(app.dir, env)
    }, 60_000)
    afterAll(async () => {
      await stopApp(server?.child)
      stopDatabase?.()
    })

    const post = async (path: string, body: unknown) => {
      const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json' }
      if (token) headers.Authorization = `Bearer ${token}`
      const response = await fetch(server.url + path, { method: 'POST', headers, body: JSON.stringify(body) })
      return { status: response.status, body: (await response.json()) as any }
    }
    const schemaOf = (path: string) => document.paths[path].post.requestBody.content['application/json'].schema

    it('takes a sample of each body; a reset link made up from the document is refused as such, and only it', async () => {
      account = sampleOf(schemaOf('/register'), document) as { email: string; password: string }
      expect((await post('/register', account)).status).toBe(202)
      // The document cannot know an account's password: the samples that need it are given the one registered.
      const credentials = { email: account.email, password: account.password }
      const login = await post('/login', { ...(sampleOf(schemaOf('/login'), document) as object), ...credentials })
      expect(login.status).toBe(200)
      token = login.body.token
      expect((await post('/forgot-password', sampleOf(schemaOf('/forgot-password'), document))).status).toBe(200)
      // Nor the token of a reset link, a secret of the mail: one made up is refused, naming nothing but the link.
      const reset = await post('/reset-password', sampleOf(schemaOf('/reset-password'), document))
      expect([reset.status, reset.body]).toEqual([422, { error: expect.any(String), errors: { token: [expect.stringMatching(/link is invalid/)] } }])
      const change = await post('/password', { ...(sampleOf(schemaOf('/password'), document) as object), current_password: account.password })
      expect(change.status).toBe(200)
      // A password change revokes every token but the new one it answers with.
      token = change.body.token
    })

    it('answers 422 naming a required field that is dropped or of the wrong type', async () => {
      for (const path of BODIES) {
        const schema = schemaOf(path)
        const sample = sampleOf(schema, document) as Record<string, unknown>
        // POST /password checks the current password first: the sample carries the account's, as the test above.
        if (path === '/password') sample.current_password = account.password
        for (const field of schema.required as string[]) {
          const { [field]: _dropped, ...without } = sample
          const dropped = await post(path, without)
          expect([dropped.status, Object.keys(dropped.body.errors ?? {})], `${path} without ${field}`).toEqual([422, [field]])
          const wrong = await post(path, { ...sample, [field]: wrongTypeFor(schema.properties[field], document) })
          expect([wrong.status, Object.keys(wrong.body.errors ?? {})], `${path} with ${field} of the wrong type`).toEqual([422, [field]])
        }
      }
    })
  })
})
