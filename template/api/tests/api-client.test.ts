import { createClient, type ApiClient } from 'fw-runtime/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { paths } from '../.fw/api.js'
import { startServer, type TestServer } from './server.js'

// .fw/api.d.ts holds the types of the routes' contracts (routes/web.ts): `fw serve` and `npm run build` rewrite it
// when the routes change, `fw types` on demand. A frontend imports the same types to call this API.
let server: TestServer
let api: ApiClient<paths>

beforeAll(async () => {
  server = await startServer()
  api = createClient<paths>({ baseUrl: server.url })
})
afterAll(() => server.stop())

describe('the typed client (fw-runtime/client)', () => {
  it('creates a task and reads it back, with the types of the routes\' contracts', async () => {
    const created = await api.POST('/api/tasks', { body: { title: 'Ship it' } })
    expect(created.response.status).toBe(201)
    expect(created.data?.task).toMatchObject({ id: expect.any(Number), title: 'Ship it', completed: false })

    const id = String(created.data!.task.id)
    const shown = await api.GET('/api/tasks/{id}', { params: { path: { id } } })
    expect(shown.data?.task).toEqual(created.data?.task)
  })

  it('gives the error answer as error, and no data', async () => {
    const missing = await api.GET('/api/tasks/{id}', { params: { path: { id: '0' } } })
    expect(missing.response.status).toBe(404)
    expect(missing.data).toBeUndefined()
    expect(missing.error).toEqual({ error: 'Task not found' })
  })

  it('sends the declared query', async () => {
    const posts = await api.GET('/api/posts', { params: { query: { page: '2' } } })
    expect(posts.data?.meta.current_page).toBe(2)
    expect(posts.data?.data[0]).toEqual({ id: 11, title: 'Post 11' })
  })
})
