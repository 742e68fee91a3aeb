import type { Kysely } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Container } from '../../src/container/Container.js'
import { constraintViolation } from '../../src/database/ConstraintViolationError.js'
import { db as appDb, transaction } from '../../src/database/db.js'
import type { Request } from '../../src/http/Request.js'
import { Response } from '../../src/http/Response.js'
import { Router } from '../../src/routing/Router.js'
import type { RunningServer } from '../../src/server/listen.js'
import { unique } from '../../src/validation/unique.js'
import { listenOn, servers } from '../support/servers.js'
import { teamBackends, useTeamDatabase } from '../support/teamDatabase.js'

/** The app's database, untyped: these tests' tables are not the app's `Tables`. */
const db = () => appDb() as Kysely<any>

/** Writes with no rule in front of them: the database's constraints have the only word. */
function routes(): Router {
  const router = new Router(new Container())
  router.post('/users', async (request: Request) => {
    await db().insertInto('users').values({ name: String(request.input('name')), email: String(request.input('email')) }).execute()
    return Response.json({ created: true }, 201)
  })
  // A race past the rule: another request takes the email between the check and the insert.
  router.post('/race', async (request: Request) => {
    const { email } = await request.validate(z.object({ email: z.email().check(unique('users', 'email')) }))
    await db().insertInto('users').values({ name: 'The other request', email }).execute()
    await db().insertInto('users').values({ name: 'This request', email }).execute()
    return Response.json({ created: true }, 201)
  })
  router.post('/projects', async (request: Request) => {
    await db().insertInto('projects').values(request.all()).execute()
    return Response.json({ created: true }, 201)
  })
  router.put('/projects/{project}', async (request: Request, project: string) => {
    await db().updateTable('projects').set(request.all()).where('id', '=', Number(project)).execute()
    return { updated: true }
  })
  router.delete('/teams/{team}', async (_request: Request, team: string) => {
    await db().deleteFrom('teams').where('id', '=', Number(team)).execute()
    return { deleted: true }
  })
  router.post('/teams-with-project', async (request: Request) => {
    await transaction(async () => {
      const team = await db().insertInto('teams').values({ name: String(request.input('team')) }).returning('id').executeTakeFirstOrThrow()
      await db().insertInto('projects').values({ team_id: team.id, owner_id: request.input('owner_id'), name: 'First' }).execute()
    })
    return Response.json({ created: true }, 201)
  })
  router.get('/broken', async () => db().selectFrom('no_such_table').selectAll().execute())
  return router
}

describe.each(teamBackends)('constraint violations over HTTP on $name', (backend) => {
  const database = useTeamDatabase(backend)

  describe.each(servers)('$name', ({ start }) => {
    let server: RunningServer
    beforeAll(async () => {
      server = await listenOn(start, routes())
    })
    afterAll(() => server?.close())

    const send = async (method: string, path: string, body?: unknown, accept = 'application/json') => {
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: { 'Content-Type': 'application/json', Accept: accept },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      const text = await response.text()
      return { status: response.status, body: response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text }
    }

    it('answers a unique violation 409 naming the field', async () => {
      expect(await send('POST', '/users', { name: 'Ada again', email: 'ada@example.com' })).toEqual({
        status: 409,
        body: { error: 'The email has already been taken.', errors: { email: ['The email has already been taken.'] } },
      })
    })

    it('answers a race past the unique rule 409, and keeps the row that won', async () => {
      expect(await send('POST', '/race', { email: 'grace@example.com' })).toEqual({
        status: 409,
        body: { error: 'The email has already been taken.', errors: { email: ['The email has already been taken.'] } },
      })
      expect(await database.db.selectFrom('users').select('name').where('email', '=', 'grace@example.com').execute()).toEqual([{ name: 'The other request' }])
    })

    it('names the column a composite unique key is about: the last one', async () => {
      expect(await send('POST', '/projects', { team_id: 1, name: 'Apollo' })).toEqual({
        status: 409,
        body: { error: 'The name has already been taken.', errors: { name: ['The name has already been taken.'] } },
      })
      expect(await send('POST', '/projects', { team_id: 2, name: 'Apollo' })).toEqual({ status: 201, body: { created: true } })
    })

    it('answers a foreign key that names no row 422 naming that column, of an insert or an update', async () => {
      expect(await send('POST', '/projects', { team_id: 99, name: 'Gemini' })).toEqual({
        status: 422,
        body: { error: 'The selected team id is invalid.', errors: { team_id: ['The selected team id is invalid.'] } },
      })
      expect(await send('POST', '/projects', { team_id: 1, owner_id: 42, name: 'Gemini' })).toMatchObject({ status: 422, body: { errors: { owner_id: ['The selected owner id is invalid.'] } } })
      expect(await send('PUT', '/projects/1', { owner_id: 42 })).toMatchObject({ status: 422, body: { errors: { owner_id: ['The selected owner id is invalid.'] } } })
      expect(await database.db.selectFrom('projects').select(['name', 'owner_id']).execute()).toEqual([{ name: 'Apollo', owner_id: 1 }])
    })

    it('answers 409 for a row still referenced by others', async () => {
      expect(await send('DELETE', '/teams/1')).toEqual({ status: 409, body: { error: 'The record is still referenced by other records.', errors: {} } })
      expect(await send('DELETE', '/teams/2')).toEqual({ status: 200, body: { deleted: true } })
    })

    it('names the field inside a transaction, which rolls back all of it', async () => {
      expect(await send('POST', '/teams-with-project', { team: 'Green', owner_id: 42 })).toMatchObject({ status: 422, body: { errors: { owner_id: ['The selected owner id is invalid.'] } } })
      expect(await database.db.selectFrom('teams').select('name').orderBy('id').execute()).toEqual([{ name: 'Red' }, { name: 'Blue' }])
      expect(await send('POST', '/teams-with-project', { team: 'Green', owner_id: 1 })).toEqual({ status: 201, body: { created: true } })
    })

    it('leaves the foreign keys checked at once after finding the field', async () => {
      await send('POST', '/projects', { team_id: 99, name: 'Gemini' })
      await expect(database.db.insertInto('projects').values({ team_id: 98, name: 'Mercury' }).execute()).rejects.toThrow()
      expect(await database.db.selectFrom('projects').select('name').execute()).toEqual([{ name: 'Apollo' }])
    })

    it('answers a browser with the status as a page', async () => {
      const { status, body } = await send('POST', '/users', { name: 'Ada again', email: 'ada@example.com' }, 'text/html')
      expect(status).toBe(409)
      expect(body).toContain('The email has already been taken.')
    })

    it('keeps any other database error a 500 without its SQL', async () => {
      expect(await send('GET', '/broken')).toEqual({ status: 500, body: { error: 'Internal Server Error' } })
    })
  })
})

describe('constraintViolation()', () => {
  it('reads the columns of PostgreSQL’s detail, quoted or not, and none of an expression', () => {
    expect(constraintViolation({ code: '23505', detail: 'Key (team_id, "Display Name")=(1, Apollo) already exists.' })).toEqual({ kind: 'unique', columns: ['team_id', 'Display Name'] })
    expect(constraintViolation({ code: '23505', detail: 'Key (lower(email::text))=(ada@example.com) already exists.' })).toEqual({ kind: 'unique', columns: [] })
    expect(constraintViolation({ code: '23503', detail: 'Key (author_id)=(99) is not present in table "users".' })).toEqual({ kind: 'foreignKey', columns: ['author_id'] })
    expect(constraintViolation({ code: '23503', detail: 'Key (id)=(1) is still referenced from table "posts".' })).toEqual({ kind: 'referenced', columns: [] })
  })

  it('reads the columns of SQLite’s message, and none of an index on an expression', () => {
    expect(constraintViolation({ code: 'SQLITE_CONSTRAINT_UNIQUE', message: 'UNIQUE constraint failed: projects.team_id, projects.name' })).toEqual({ kind: 'unique', columns: ['team_id', 'name'] })
    expect(constraintViolation({ code: 'SQLITE_CONSTRAINT_PRIMARYKEY', message: 'UNIQUE constraint failed: users.id' })).toEqual({ kind: 'unique', columns: ['id'] })
    expect(constraintViolation({ code: 'SQLITE_CONSTRAINT_UNIQUE', message: "UNIQUE constraint failed: index 'users_email_lower'" })).toEqual({ kind: 'unique', columns: [] })
  })

  it('is undefined for any other error', () => {
    expect(constraintViolation(new Error('boom'))).toBeUndefined()
    expect(constraintViolation({ code: '23502' })).toBeUndefined()
    expect(constraintViolation(undefined)).toBeUndefined()
  })
})

