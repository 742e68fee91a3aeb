import type { Kysely } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Container } from '../../src/container/Container.js'
import { compileQuery } from '../../src/database/compileQuery.js'
import { db as appDb, transaction } from '../../src/database/db.js'
import { maintenanceMode } from '../../src/middleware/maintenanceMode.js'
import { Router } from '../../src/routing/Router.js'
import type { RunningServer } from '../../src/server/listen.js'
import { serve } from '../../src/server/serve.js'
import { expectDatabaseHas } from '../../src/testing/databaseAssertions.js'
import { expectQueries } from '../../src/testing/expectQueries.js'
import { testClient } from '../../src/testing/TestClient.js'
import { listenOn } from '../support/servers.js'
import { teamBackends, useTeamDatabase } from '../support/teamDatabase.js'

/** The app's database, untyped: these tests' tables are not the app's `Tables`. */
const db = () => appDb() as Kysely<any>

function routes(): Router {
  const router = new Router(new Container())
  // Each project's team loaded on its own: one query more per project.
  router.get('/projects/one-by-one', async () => {
    const projects: Record<string, unknown>[] = await db().selectFrom('projects').select(['name', 'team_id']).orderBy('id').execute()
    for (const project of projects) project.team = (await db().selectFrom('teams').select('name').where('id', '=', project.team_id).executeTakeFirst())?.name
    return { projects }
  })
  // The teams at once: two queries, however many projects.
  router.get('/projects/at-once', async () => {
    const projects = await db().selectFrom('projects').select(['name', 'team_id']).orderBy('id').execute()
    const teams = await db().selectFrom('teams').select(['id', 'name']).where('id', 'in', projects.map((project) => project.team_id)).execute()
    return { projects: projects.map((project) => ({ ...project, team: teams.find((team) => team.id === project.team_id)?.name })) }
  })
  return router
}

describe.each(teamBackends)('expectQueries() on $name', (backend) => {
  const database = useTeamDatabase(backend)
  let server: RunningServer
  beforeAll(async () => {
    server = await listenOn(serve, routes())
  })
  afterAll(() => server?.close())

  const addProjects = () => database.db.insertInto('projects').values([{ team_id: 2, name: 'Gemini' }, { team_id: 1, name: 'Mercury' }]).execute()

  it('passes for the queries a request makes, through the test client and over a socket', async () => {
    await addProjects()
    const client = testClient(routes())
    const response = await expectQueries(2, () => client.get('/projects/at-once'))
    expect((await response.json()).projects).toHaveLength(3)
    await expectQueries(2, () => fetch(`${server.url}/projects/at-once`))
    await expectQueries(4, () => fetch(`${server.url}/projects/one-by-one`))
  })

  it('fails for an N+1, listing the SQL of each query', async () => {
    await addProjects()
    const client = testClient(routes())
    const failure = await expectQueries(2, () => client.get('/projects/one-by-one')).catch((error: Error) => error)
    expect(failure).toBeInstanceOf(Error)
    const lines = (failure as Error).message.split('\n')
    expect(lines[0]).toBe('Expected 2 queries, 4 ran:')
    expect(lines.slice(1)).toHaveLength(4)
    expect(lines[1]).toMatch(/^ {2}1\. select "name", "team_id" from "projects" order by "id"$/)
    for (const line of lines.slice(2)) expect(line).toMatch(/^ {2}\d\. select "name" from "teams" where "id" = (\?|\$1)$/)
  })

  it('counts the queries of a transaction and of a query compiled ahead, and returns what the work returns', async () => {
    const teamById = compileQuery((database: Kysely<any>, id: number) => database.selectFrom('teams').select('name').where('id', '=', id))
    const name = await expectQueries(3, async () => {
      await transaction(async () => {
        await db().insertInto('teams').values({ name: 'Green' }).execute()
        await db().updateTable('teams').set({ name: 'Teal' }).where('name', '=', 'Green').execute()
      })
      return (await teamById.executeTakeFirst(db(), 3))?.name
    })
    expect(name).toBe('Teal')
    const failure = await expectQueries(0, () => teamById.execute(db(), 1)).catch((error: Error) => error.message)
    expect(failure).toMatch(/^Expected 0 queries, 1 ran:\n {2}1\. select "name" from "teams" where "id" = (\?|\$1)$/)
  })

  it('does not count the sign-in of actingAs, begun before the work', async () => {
    const client = testClient(routes()).actingAs({ id: 1 }, 'token')
    await expectQueries(2, () => client.get('/projects/at-once'))
    await expectDatabaseHas('access_tokens', { user_id: 1, kind: 'api' })
  })

  it("does not count maintenanceMode's once-a-second check, which follows the clock and not the work", async () => {
    const router = routes()
    router.use(maintenanceMode())
    const client = testClient(router)
    // Each call is a counting database of its own, which the check has never read: counted, it would be 2 more.
    await expectQueries(2, () => client.get('/projects/at-once'))
    await expectQueries(2, () => client.get('/projects/at-once'))
    expect((await client.get('/projects/at-once')).status).toBe(200)
  })

  it('gives the application its database back, also when the work throws', async () => {
    const before = Container.getInstance().make('db')
    await expect(expectQueries(1, async () => {
      await db().selectFrom('teams').selectAll().execute()
      throw new Error('the work failed')
    })).rejects.toThrow('the work failed')
    expect(Container.getInstance().make('db')).toBe(before)
    await expectQueries(0, async () => {})
  })
})
