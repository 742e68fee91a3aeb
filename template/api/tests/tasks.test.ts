import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { refreshDatabase, type TestClient } from 'fw-runtime/testing'
import { Task } from '#app/Models/Task.js'
import { TaskFactory } from '#database/factories/TaskFactory.js'
import { createClient, json } from './app.js'

interface TaskJson {
  id: number
  title: string
  completed: boolean
  created_at: string
  updated_at: string
}

let client: TestClient
beforeAll(async () => {
  client = await createClient()
})
// The tests' own database (tests/database.ts), emptied before each test: never the development one.
beforeEach(refreshDatabase)

function send(method: string, path: string, body?: unknown) {
  return client.fetch(path, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
}

describe('TaskController', () => {
  it('GET /api/tasks lists the tasks of the database, oldest first, with their count', async () => {
    const stored = await TaskFactory.count(3).create()
    const response = await send('GET', '/api/tasks')
    expect(response.status).toBe(200)
    const body = await json<{ tasks: TaskJson[]; count: number }>(response)
    expect(body.count).toBe(3)
    expect(body.tasks.map((task) => [task.id, task.title, task.completed])).toEqual(stored.map((task) => [task.id, task.title, task.completed]))
  })

  it('creates a task, reads it back, updates it, deletes it: after that it is 404 everywhere', async () => {
    const created = await send('POST', '/api/tasks', { title: 'Ship it' })
    expect(created.status).toBe(201)
    const { task } = await json<{ task: TaskJson }>(created)
    expect(task).toEqual({ id: expect.any(Number), title: 'Ship it', completed: false, created_at: expect.any(String), updated_at: expect.any(String) })

    const shown = await send('GET', `/api/tasks/${task.id}`)
    expect([shown.status, (await json<{ task: TaskJson }>(shown)).task]).toEqual([200, task])

    const updated = await send('PUT', `/api/tasks/${task.id}`, { completed: true })
    expect(updated.status).toBe(200)
    // What PUT leaves out stays as it is.
    expect((await json<{ task: TaskJson }>(updated)).task).toMatchObject({ id: task.id, title: 'Ship it', completed: true })
    expect(await Task.find(task.id)).toMatchObject({ title: 'Ship it', completed: true })

    const deleted = await send('DELETE', `/api/tasks/${task.id}`)
    expect([deleted.status, await deleted.json()]).toEqual([200, { message: 'Task deleted', id: task.id }])
    for (const [method, body] of [['GET'], ['PUT', { title: 'Again' }], ['DELETE']] as const) {
      const gone = await send(method, `/api/tasks/${task.id}`, body)
      expect([method, gone.status, await gone.json()]).toEqual([method, 404, { error: 'Task not found' }])
    }
    expect(await Task.count()).toBe(0)
  })

  it('POST /api/tasks titles a task Untitled by default', async () => {
    const untitled = await send('POST', '/api/tasks', {})
    expect(untitled.status).toBe(201)
    expect((await json<{ task: TaskJson }>(untitled)).task).toMatchObject({ title: 'Untitled', completed: false })
  })

  it('refuses a title that is not a string, or longer than the column: 422 naming the field, and nothing stored', async () => {
    for (const title of [42, 'x'.repeat(256)]) {
      const response = await send('POST', '/api/tasks', { title })
      expect(response.status).toBe(422)
      const body = await json<{ error: string; errors: Record<string, string[]> }>(response)
      expect(body.error).toBe('The given data was invalid.')
      expect(Object.keys(body.errors)).toEqual(['title'])
    }
    expect(await Task.count()).toBe(0)
  })

  it('answers 404 Task not found for an id no task has, or one that cannot be an id', async () => {
    for (const id of ['999', 'abc', '99999999999999999999']) {
      const response = await send('GET', `/api/tasks/${id}`)
      expect([id, response.status, await response.json()]).toEqual([id, 404, { error: 'Task not found' }])
    }
  })
})
