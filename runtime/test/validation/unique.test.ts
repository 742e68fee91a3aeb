import type { Kysely } from 'kysely'
import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Container } from '../../src/container/Container.js'
import { db as appDb, transaction } from '../../src/database/db.js'
import type { Request } from '../../src/http/Request.js'
import { Response } from '../../src/http/Response.js'
import { ValidationError } from '../../src/http/ValidationError.js'
import { Router } from '../../src/routing/Router.js'
import type { RunningServer } from '../../src/server/listen.js'
import { serve } from '../../src/server/serve.js'
import { unique } from '../../src/validation/unique.js'
import { listenOn } from '../support/servers.js'
import { teamBackends, useTeamDatabase } from '../support/teamDatabase.js'

/** The app's database, untyped: these tests' tables are not the app's `Tables`. */
const db = () => appDb() as Kysely<any>

function routes(): Router {
  const router = new Router(new Container())
  router.post('/users', async (request: Request) => {
    const body = await request.validate(z.object({ name: z.string(), email: z.email().check(unique('users', 'email')) }))
    const user = await db().insertInto('users').values(body).returning(['id', 'email']).executeTakeFirstOrThrow()
    return Response.json({ user }, 201)
  })
  router.put('/users/{user}', async (request: Request, user: string) => {
    const body = await request.validate(z.object({ email: z.email().check(unique('users', 'email', { ignore: Number(user) })) }))
    await db().updateTable('users').set(body).where('id', '=', Number(user)).execute()
    return { updated: body.email }
  })
  router.post('/teams/{team}/projects', async (request: Request, team: string) => {
    const teamId = Number(team)
    const body = await request.validate(z.object({ name: z.string().check(unique('projects', 'name', { where: { team_id: teamId } })) }))
    return Response.json({ project: body.name, team: teamId }, 201)
  })
  router.post('/valibot/users', async (request: Request) => {
    const emailIsFree = unique('users', 'email')
    const schema = v.objectAsync({ email: v.pipeAsync(v.string(), v.email(), v.checkAsync(emailIsFree.passes, emailIsFree.message)) })
    return { email: (await request.validate(schema)).email }
  })
  router.post('/by-hand', async (request: Request) => {
    const emailIsFree = unique('users', 'email', { message: 'That address is in use.' })
    const email = String(request.input('email'))
    if (!(await emailIsFree.passes(email))) throw new ValidationError({ email: [emailIsFree.message] })
    return { email }
  })
  return router
}

describe.each(teamBackends)('unique() on $name', (backend) => {
  const database = useTeamDatabase(backend)
  let server: RunningServer
  beforeAll(async () => {
    server = await listenOn(serve, routes())
  })
  afterAll(() => server?.close())

  const send = async (method: string, path: string, body: unknown) => {
    const response = await fetch(`${server.url}${path}`, { method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
    return { status: response.status, body: (await response.json()) as any }
  }

  it('answers 422 naming the field when the value is taken, and lets a free one through', async () => {
    expect(await send('POST', '/users', { name: 'Ada again', email: 'ada@example.com' })).toEqual({
      status: 422,
      body: { error: 'The given data was invalid.', errors: { email: ['The email has already been taken.'] } },
    })
    const created = await send('POST', '/users', { name: 'Grace', email: 'grace@example.com' })
    expect(created).toEqual({ status: 201, body: { user: { id: 2, email: 'grace@example.com' } } })
    expect(await database.db.selectFrom('users').select('email').orderBy('id').execute()).toEqual([{ email: 'ada@example.com' }, { email: 'grace@example.com' }])
  })

  it('asks nothing of a value that already failed: one message, the schema’s', async () => {
    const { status, body } = await send('POST', '/users', { name: 'Nobody', email: 'not an email' })
    expect(status).toBe(422)
    expect(body.errors.email).toHaveLength(1)
    expect(body.errors.email[0]).not.toContain('taken')
  })

  it('ignores the row being updated, and no other', async () => {
    expect(await send('PUT', '/users/1', { email: 'ada@example.com' })).toEqual({ status: 200, body: { updated: 'ada@example.com' } })
    await database.db.insertInto('users').values({ name: 'Grace', email: 'grace@example.com' }).execute()
    expect(await send('PUT', '/users/2', { email: 'ada@example.com' })).toMatchObject({ status: 422, body: { errors: { email: ['The email has already been taken.'] } } })
  })

  it('counts only the rows `where` names: a name is unique within its team', async () => {
    expect(await send('POST', '/teams/1/projects', { name: 'Apollo' })).toMatchObject({ status: 422, body: { errors: { name: ['The name has already been taken.'] } } })
    expect(await send('POST', '/teams/2/projects', { name: 'Apollo' })).toEqual({ status: 201, body: { project: 'Apollo', team: 2 } })
  })

  it('plugs into valibot through passes and message', async () => {
    expect(await send('POST', '/valibot/users', { email: 'ada@example.com' })).toMatchObject({ status: 422, body: { errors: { email: ['The email has already been taken.'] } } })
    expect(await send('POST', '/valibot/users', { email: 'linus@example.com' })).toEqual({ status: 200, body: { email: 'linus@example.com' } })
  })

  it('leaves a transaction usable after a value the column cannot hold', async () => {
    const teams = await transaction(async () => {
      expect(await unique('teams', 'id').passes('abc')).toBe(true)
      return db().selectFrom('teams').select('name').orderBy('id').execute()
    })
    expect(teams).toEqual([{ name: 'Red' }, { name: 'Blue' }])
  })

  it('serves code of its own, with a message of its own', async () => {
    expect(await send('POST', '/by-hand', { email: 'ada@example.com' })).toMatchObject({ status: 422, body: { errors: { email: ['That address is in use.'] } } })
  })
})
