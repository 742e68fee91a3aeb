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
    router.post('/declared', async (request) => Response.json(await request.validate())).body(zodTask)
    router.post('/declared-valibot', async (request) => Response.json(await request.validate())).body(valibotTask)
    router.post('/explicit-declared', async (request) => Response.json(await request.validate(zodTask))).body(zodTask)
    router.post('/list', async (request) => Response.json({ sum: (await request.validate<number[]>()).reduce((a, b) => a + b, 0) })).body(z.array(z.number()))
    router.post('/explicit-list', async (request) => Response.json(await request.validate(z.array(z.number()))))
    router.get('/search', async (request) => Response.json(await request.validate(z.object({ q: z.string(), page: z.coerce.number().default(1) }))))
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

  const NOT_AN_OBJECT = { error: 'The given data was invalid.', errors: { input: ['The body must be a JSON object.'] } }
  const raw = (path: string, body: string | undefined, contentType: string | undefined = 'application/json') =>
    server.fetch(path, { method: 'POST', headers: contentType ? { 'Content-Type': contentType } : {}, body })

  it('refuses a JSON body that is not an object with a 422 naming it, instead of filling in defaults (issue 38)', async () => {
    for (const path of ['/zod', '/declared', '/explicit-declared', '/declared-valibot']) {
      for (const body of ['[null,null]', '42', '"x"', 'null', 'true', '[]', '']) {
        const response = await raw(path, body)
        expect([path, body, response.status, await readJson(response)]).toEqual([path, body, 422, NOT_AN_OBJECT])
      }
    }
    // No body at all, on a route that declares one: nothing to fill defaults into.
    for (const path of ['/declared', '/explicit-declared', '/declared-valibot']) {
      const response = await raw(path, undefined, undefined)
      expect([path, response.status, await readJson(response)]).toEqual([path, 422, NOT_AN_OBJECT])
    }
    // An object still gets its defaults, whichever way it is validated.
    for (const path of ['/declared', '/explicit-declared']) {
      expect(await readJson(await raw(path, '{}'))).toEqual({ title: 'Untitled', done: false })
    }
  })

  it('gives a schema of an array its array body as it is, and keeps validating the query of a request without a body', async () => {
    const sum = await raw('/list', '[1,2,3]')
    expect([sum.status, await readJson(sum)]).toEqual([200, { sum: 6 }])
    const notList = await raw('/list', '{"a":1}')
    expect([notList.status, Object.keys((await readJson(notList)).errors)]).toEqual([422, ['input']])
    expect(await readJson(await raw('/explicit-list', '[4,5]'))).toEqual([4, 5])
    const search = await server.fetch('/search?q=fw')
    expect([search.status, await readJson(search)]).toEqual([200, { q: 'fw', page: 1 }])
  })
})
