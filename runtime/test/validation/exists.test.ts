import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Container } from '../../src/container/Container.js'
import type { Request } from '../../src/http/Request.js'
import { Router } from '../../src/routing/Router.js'
import type { RunningServer } from '../../src/server/listen.js'
import { serveNode } from '../../src/server/serveNode.js'
import { exists } from '../../src/validation/exists.js'
import { listenOn } from '../support/servers.js'
import { teamBackends, useTeamDatabase } from '../support/teamDatabase.js'

function routes(): Router {
  const router = new Router(new Container())
  router.post('/projects', async (request: Request) => {
    const body = await request.validate(z.object({ name: z.string(), team_id: z.number().int().check(exists('teams', 'id')) }))
    return { valid: body }
  })
  // The key as the client sent it: a string that cannot be an integer must fail as a missing row does, not as a 500.
  router.post('/loose', async (request: Request) => ({ valid: await request.validate(z.object({ team_id: z.unknown().check(exists('teams', 'id')) })) }))
  router.post('/teams/{team}/owner', async (request: Request, team: string) => {
    const rule = exists('users', 'id', { where: { team_id: Number(team) }, message: 'Choose a member of the team.' })
    return { valid: await request.validate(z.object({ owner_id: z.number().check(rule) })) }
  })
  router.post('/teams/pick', async (request: Request) => ({ valid: await request.validate(z.object({ team_ids: z.array(z.number()).check(exists('teams', 'id')) })) }))
  return router
}

describe.each(teamBackends)('exists() on $name', (backend) => {
  useTeamDatabase(backend)
  let server: RunningServer
  beforeAll(async () => {
    server = await listenOn(serveNode, routes())
  })
  afterAll(() => server?.close())

  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
    return { status: response.status, body: await response.json() }
  }

  it('answers 422 naming the field for a key that names no row, and lets an existing one through', async () => {
    expect(await post('/projects', { name: 'Gemini', team_id: 99 })).toEqual({
      status: 422,
      body: { error: 'The given data was invalid.', errors: { team_id: ['The selected id is invalid.'] } },
    })
    expect(await post('/projects', { name: 'Gemini', team_id: 2 })).toEqual({ status: 200, body: { valid: { name: 'Gemini', team_id: 2 } } })
  })

  it('fails a value that cannot be the column’s type, without an error', async () => {
    for (const team_id of ['abc', '99999999999999999999', { id: 1 }]) {
      expect(await post('/loose', { team_id })).toMatchObject({ status: 422, body: { errors: { team_id: ['The selected id is invalid.'] } } })
    }
    expect(await post('/loose', { team_id: '1' })).toEqual({ status: 200, body: { valid: { team_id: '1' } } })
  })

  it('counts only the rows `where` names', async () => {
    expect(await post('/teams/2/owner', { owner_id: 1 })).toMatchObject({ status: 422, body: { errors: { owner_id: ['Choose a member of the team.'] } } })
    expect(await post('/teams/1/owner', { owner_id: 1 })).toEqual({ status: 200, body: { valid: { owner_id: 1 } } })
  })

  it('checks every element of an array', async () => {
    expect(await post('/teams/pick', { team_ids: [1, 2, 2] })).toEqual({ status: 200, body: { valid: { team_ids: [1, 2, 2] } } })
    expect(await post('/teams/pick', { team_ids: [1, 3] })).toMatchObject({ status: 422, body: { errors: { team_ids: ['The selected id is invalid.'] } } })
  })
})
