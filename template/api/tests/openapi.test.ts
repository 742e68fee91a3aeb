import { beforeAll, describe, expect, it } from 'vitest'
import type { TestClient } from 'fw-runtime/testing'
import { createClient, json } from './app.js'

interface Operation {
  requestBody?: unknown
  parameters?: { in: string; name: string }[]
  responses: Record<string, { content?: Record<string, unknown> }>
}
interface Document {
  paths: Record<string, Record<string, Operation>>
}

let client: TestClient
let document: Document
beforeAll(async () => {
  client = await createClient()
  const response = await client.get('/openapi.json')
  expect(response.status).toBe(200)
  document = await json<Document>(response)
})

/** The operation of a route in the document, which must be there. */
function operation(method: string, path: string): Operation {
  const found = document.paths[path]?.[method]
  if (!found) throw new Error(`/openapi.json has no ${method.toUpperCase()} ${path}`)
  return found
}

describe('GET /openapi.json, the document of the routes (routes/web.ts)', () => {
  it('lists every route of the starter, each with the success it declares', () => {
    const routes = {
      'get /': '200', 'get /hello': '200', 'get /greet/{name}': '200',
      'get /users': '200', 'get /users/{id}': '200', 'post /users': '201', 'put /users/{id}': '200', 'delete /users/{id}': '200',
      'get /health': '200', 'get /download': '200',
      'get /api/tasks': '200', 'get /api/tasks/{id}': '200', 'post /api/tasks': '201', 'put /api/tasks/{id}': '200', 'delete /api/tasks/{id}': '200',
      'post /api/users': '201', 'get /api/posts': '200', 'get /api/data': '200',
    }
    // The routes you add are listed too: declare their answers, and add them here.
    const listed = Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method} ${path}`))
    expect(listed).toEqual(expect.arrayContaining(Object.keys(routes)))
    for (const [route, status] of Object.entries(routes)) {
      const [method, path] = route.split(' ') as [string, string]
      // Every success has its body's media types: JSON with a schema, the download's plain text, the data in three forms.
      const types = route === 'get /download' ? ['text/plain'] : route === 'get /api/data' ? ['application/json', 'text/plain', 'text/html'] : ['application/json']
      expect([route, Object.keys(operation(method, path).responses[status]?.content ?? {})]).toEqual([route, types])
    }
  })

  it('declares the bodies, the query and the error answers', () => {
    for (const [method, path] of [['post', '/users'], ['put', '/users/{id}'], ['post', '/api/tasks'], ['put', '/api/tasks/{id}'], ['post', '/api/users']] as const) {
      expect([method, path, operation(method, path).requestBody]).toEqual([method, path, expect.anything()])
    }
    for (const [method, path] of [['get', '/api/tasks/{id}'], ['put', '/api/tasks/{id}'], ['delete', '/api/tasks/{id}']] as const) {
      expect(Object.keys(operation(method, path).responses)).toContain('404')
    }
    expect(operation('get', '/api/posts').parameters).toContainEqual(expect.objectContaining({ in: 'query', name: 'page' }))
    expect(Object.keys(operation('get', '/api/data').responses)).toContain('400')
    expect(Object.keys(operation('get', '/health').responses)).toContain('503')
  })

  it('declares POST /api/users with its body and its input check\'s answers (400, 422)', () => {
    const create = operation('post', '/api/users')
    expect(create.requestBody).toEqual(expect.anything())
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['201', '400', '422']))
  })
})
