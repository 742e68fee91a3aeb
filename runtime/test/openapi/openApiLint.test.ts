// The document of routes shaped like the api starter and fw make:auth, judged by Redocly's recommended rules: every
// operation says which credentials it takes (security-defined) and which client errors it answers (operation-4xx-response).
import { createConfig, lintFromString } from '@redocly/openapi-core'
import { validate as validateOpenApi } from '@readme/openapi-parser'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { auth, redirectIfAuthenticated } from '../../src/auth/auth.js'
import { authCsrf } from '../../src/auth/authCsrf.js'
import { credentialsBody, emailBody, passwordChangeBody, passwordResetBody, registrationBody } from '../../src/auth/authBodies.js'
import { authHeaders } from '../../src/auth/authHeaders.js'
import { Container } from '../../src/container/Container.js'
import { documented } from '../../src/http/middlewareDocs.js'
import { Response } from '../../src/http/Response.js'
import { openApiDocument } from '../../src/openapi/openApiDocument.js'
import { Router } from '../../src/routing/Router.js'

const apiKey = documented((request, next) => (request.header('x-api-key') === process.env.API_KEY ? next() : Response.error('Unauthenticated', 401)), {
  responses: { 401: { description: 'No valid X-API-Key header' } },
  security: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
})
const throttle = documented((_request, next) => next(), {
  responses: { 429: { description: 'Too many attempts', headers: { 'Retry-After': 'Seconds to wait before trying again' } } },
})

const page = (title: string) => () => Response.html(`<h1>${title}</h1>`)
const Task = z.object({ id: z.number().int(), title: z.string(), done: z.boolean() })

/** The api starter's routes and make:auth's, with their middleware, in a router of the test's own. */
function starterWithAuth(): Router {
  const router = new Router(new Container())
  router.get('/', () => ({ status: 'running' }))
  router.get('/health', () => ({ status: 'ok' })).returns(200, z.object({ status: z.string() }))
  router.group({ prefix: '/api' }, () => {
    router.get('/tasks', () => ({ tasks: [] })).returns(200, z.object({ tasks: z.array(Task) }))
    router.get('/tasks/{id}', () => ({})).whereNumber('id').returns(200, Task).returns(404, undefined, 'No task with that id')
    router.post('/tasks', () => ({})).body(z.object({ title: z.string().default('Untitled') })).returns(201, Task)
    router.delete('/tasks/{id}', () => new Response('', 204)).whereNumber('id').returns(204)
    router.post('/users', () => ({})).middleware(apiKey).body(z.object({ name: z.string(), email: z.email() })).returns(201, undefined, 'The user, created')
  })
  router.group({ middleware: [authHeaders, 'session', redirectIfAuthenticated('/me'), authCsrf] }, () => {
    router.get('/register', page('Register')).name('register').returns(200, 'text/html', 'The registration page')
    router.post('/register', () => ({})).middleware(throttle).body(registrationBody).returns(202, undefined, 'Check your inbox')
    router.get('/login', page('Sign in')).name('login').returns(200, 'text/html', 'The sign-in page')
    router.post('/login', () => ({})).middleware(throttle).body(credentialsBody).returns(200, z.object({ token: z.string() }))
    router.post('/forgot-password', () => ({})).middleware(throttle).body(emailBody).returns(200, z.object({ message: z.string() }))
    router.get('/reset-password/{token}', page('Reset')).name('password.reset').returns(200, 'text/html').returns(404, undefined, 'No such link')
    router.post('/reset-password', () => ({})).body(passwordResetBody).returns(200, z.object({ message: z.string() }))
  })
  router.group({ middleware: [authHeaders, 'session', auth, 'csrf'] }, () => {
    router.get('/me', () => ({})).name('me').returns(200, z.object({ user: z.object({ id: z.number(), email: z.string() }) }))
    router.post('/password', () => ({})).body(passwordChangeBody).returns(200, z.object({ token: z.string() }))
    router.post('/logout', () => new Response('', 204)).returns(204)
    router.get('/email/verify', page('Verify your email')).name('verification.notice').returns(200, 'text/html')
    router.post('/email/verification-notification', () => ({})).middleware(throttle).returns(202, undefined, 'A new link is on its way')
    router.get('/dashboard', page('Dashboard')).middleware('verified').returns(200, 'text/html')
  })
  router.get('/email/verify/{id}/{hash}', () => ({})).name('verification.verify').middleware(authHeaders, 'session', 'signed').returns(200, z.object({ verified: z.boolean() }))
  return router
}

describe("Redocly's recommended rules over the document of the api starter and make:auth", () => {
  const document = openApiDocument(starterWithAuth().commit().getRoutes(), { title: 'fw-app', version: '0.1.0' }, { serverUrl: 'http://localhost:8000' })

  it('find no operation without security or without a 4xx response', async () => {
    const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: 'openapi.json', config: await createConfig({ extends: ['recommended'] }) })
    const findings = problems.map((problem) => `${problem.ruleId}: ${problem.message} (${problem.location[0]?.pointer})`)
    expect(findings.filter((finding) => /^(security-defined|operation-4xx-response)/.test(finding))).toEqual([])
    // What is left is the application's to write (a license, a summary per route) and its local APP_URL.
    expect([...new Set(problems.map((problem) => problem.ruleId))].sort()).toEqual(['info-license', 'no-server-example.com', 'operation-summary'])
    // The rules are real: an operation that loses its 4xx answers, or a document without its root security, is found.
    const broken = structuredClone(document) as any
    broken.paths['/health'].get.responses = { '200': { description: 'OK' } }
    delete broken.security
    const found = await lintFromString({ source: JSON.stringify(broken), absoluteRef: 'openapi.json', config: await createConfig({ extends: ['recommended'] }) })
    expect(found.map((problem) => problem.ruleId)).toEqual(expect.arrayContaining(['security-defined', 'operation-4xx-response']))
  })

  it('is valid OpenAPI 3.1, as @readme/openapi-parser judges it', async () => {
    const verdict = await validateOpenApi(structuredClone(document) as any)
    expect(verdict.valid ? [] : verdict.errors).toEqual([])
  })
})
