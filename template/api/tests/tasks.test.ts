import { beforeAll, describe, expect, it } from 'vitest'
import type { TestClient } from 'fw-runtime/testing'
import { createClient, json } from './app.js'

let client: TestClient
beforeAll(async () => {
  client = await createClient()
})

function send(method: string, path: string, body?: unknown) {
  return client.fetch(path, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
}

describe('TaskController', () => {
  it('GET /api/tasks lists tasks with their count', async () => {
    const response = await send('GET', '/api/tasks')
    expect(response.status).toBe(200)
    const body = await json<{ tasks: unknown[]; count: number }>(response)
    expect(body.count).toBe(body.tasks.length)
    for (const task of body.tasks) {
      expect(task).toEqual({ id: expect.any(Number), title: expect.any(String), completed: expect.any(Boolean) })
    }
  })

  it('GET /api/tasks/{id} shows a task, or 404 Task not found', async () => {
    const response = await send('GET', '/api/tasks/1')
    expect(response.status).toBe(200)
    expect((await json<{ task: unknown }>(response)).task).toMatchObject({ id: 1 })

    const missing = await send('GET', '/api/tasks/999')
    expect(missing.status).toBe(404)
    expect(await missing.json()).toEqual({ error: 'Task not found' })
  })

  it('POST /api/tasks creates a task, titled Untitled by default', async () => {
    const response = await send('POST', '/api/tasks', { title: 'Ship it' })
    expect(response.status).toBe(201)
    const body = await response.json()
    expect(body).toEqual({ message: expect.any(String), task: { id: expect.any(Number), title: 'Ship it', completed: false } })

    const untitled = await send('POST', '/api/tasks', {})
    expect(untitled.status).toBe(201)
    expect((await json<{ task: unknown }>(untitled)).task).toMatchObject({ title: 'Untitled', completed: false })
  })

  it('POST /api/tasks with a title that is not a string is a 422 naming the field', async () => {
    const response = await send('POST', '/api/tasks', { title: 42 })
    expect(response.status).toBe(422)
    const body = await json<{ error: string; errors: Record<string, string[]> }>(response)
    expect(body.error).toBe('The given data was invalid.')
    expect(Object.keys(body.errors)).toEqual(['title'])
  })

  it('PUT /api/tasks/{id} updates title and completed, with defaults', async () => {
    const response = await send('PUT', '/api/tasks/2', { title: 'Done', completed: true })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ message: expect.any(String), task: { id: '2', title: 'Done', completed: true } })

    const defaults = await send('PUT', '/api/tasks/2', {})
    expect((await json<{ task: unknown }>(defaults)).task).toEqual({ id: '2', title: 'Updated Task', completed: false })
  })

  it('DELETE /api/tasks/{id} answers with the id', async () => {
    const response = await send('DELETE', '/api/tasks/3')
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ message: expect.any(String), id: '3' })
  })
})
