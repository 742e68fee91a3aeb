import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Container } from '../../src/container/Container.js'
import { Response } from '../../src/http/Response.js'
import { ValidationError } from '../../src/http/ValidationError.js'
import { Router } from '../../src/routing/Router.js'
import { readJson, transports, type OpenApp } from '../support/servers.js'

const zodTask = z.object({
  title: z.string().default('Untitled'),
  done: z.boolean().default(false),
  owner: z.object({ email: z.email() }).optional(),
})
const valibotTask = v.object({ title: v.optional(v.string(), 'Untitled'), tags: v.optional(v.array(v.string()), []) })
const taken = z.object({ email: z.email() }).refine(async (value) => value.email !== 'taken@example.com', { message: 'The email has already been taken.', path: ['email'] })

describe.each(transports)('request.validate on $name', ({ open: openApp }) => {
  let server: OpenApp

  beforeAll(async () => {
    const router = new Router(new Container())
    router.post('/zod', async (request) => {
      const task = await request.validate(zodTask)
      // The output is typed: title is a string, done a boolean.
      return Response.json({ title: task.title.toUpperCase(), done: task.done, email: task.owner?.email ?? null }, 201)
    })
    router.post('/valibot', async (request) => Response.json(await request.validate(valibotTask)))
    router.post('/async', async (request) => Response.json(await request.validate(taken)))
    router.post('/own', () => {
      throw new ValidationError({ code: ['That code has expired.'] })
    })
    server = await openApp(router)
  })
  afterAll(() => server.close())

  const post = (path: string, body: unknown) =>
    server.fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })

  it('returns the typed output of a zod 4 schema, defaults included', async () => {
    const response = await post('/zod', { title: 'write docs' })
    expect([response.status, await readJson(response)]).toEqual([201, { title: 'WRITE DOCS', done: false, email: null }])
    expect(await readJson(await post('/zod', {}))).toMatchObject({ title: 'UNTITLED' })
  })

  it('answers 422 with the messages by field, nested paths joined by dots', async () => {
    const response = await post('/zod', { title: 42, done: 'yes', owner: { email: 'not an email' } })
    expect(response.status).toBe(422)
    const body = await readJson(response)
    expect(body.error).toBe('The given data was invalid.')
    expect(Object.keys(body.errors).sort()).toEqual(['done', 'owner.email', 'title'])
    expect(body.errors.title).toEqual([expect.stringMatching(/string/i)])
  })

  it('takes valibot as well, and async refinements', async () => {
    expect(await readJson(await post('/valibot', { tags: ['a'] }))).toEqual({ title: 'Untitled', tags: ['a'] })
    const invalid = await post('/valibot', { tags: 'a' })
    expect([invalid.status, Object.keys((await readJson(invalid)).errors)]).toEqual([422, ['tags']])
    const duplicate = await post('/async', { email: 'taken@example.com' })
    expect([duplicate.status, await readJson(duplicate)]).toEqual([
      422,
      { error: 'The given data was invalid.', errors: { email: ['The email has already been taken.'] } },
    ])
  })

  it('renders a ValidationError thrown by the application the same way', async () => {
    const response = await post('/own', {})
    expect([response.status, await readJson(response)]).toEqual([422, { error: 'The given data was invalid.', errors: { code: ['That code has expired.'] } }])
  })
})
