import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { sql, type Kysely } from 'kysely'
import { Container } from '../../src/container/Container.js'
import { createDatabase } from '../../src/database/createDatabase.js'
import { db } from '../../src/database/db.js'
import { Response } from '../../src/http/Response.js'
import { Router } from '../../src/routing/Router.js'
import type { RunningServer } from '../../src/server/listen.js'
import { startPostgres, type TestPostgres } from '../support/postgres.js'
import { listenOn, readJson, servers } from '../support/servers.js'

let postgres: TestPostgres
beforeAll(async () => {
  postgres = await startPostgres()
}, 60_000)
afterAll(() => postgres?.stop())

/** Ends every session of the application's pool, as an operator's pg_terminate_backend would. */
async function terminateAppConnections(): Promise<number> {
  const admin = createDatabase(postgres.url)
  try {
    const { rows } = await sql<{ ended: boolean }>`select pg_terminate_backend(pid) as ended from pg_stat_activity where backend_type = 'client backend' and pid <> pg_backend_pid()`.execute(admin)
    return rows.filter((row) => row.ended).length
  } finally {
    await admin.destroy()
  }
}

/** An app whose `/now` needs the database and `/ping` does not, through the documented `db()` service. */
function app(database: Kysely<any>): Router {
  Container.setInstance(new Container().instance('db', database))
  const router = new Router(Container.getInstance(), { debug: true })
  router.get('/ping', () => Response.json({ pong: true }))
  router.get('/now', async () => {
    const { rows } = await sql<{ one: number }>`select 1 as one`.execute(db())
    return { one: rows[0]!.one }
  })
  router.get('/slow/{ms}', async (request) => {
    await sql`select pg_sleep(${Number(request.param('ms')) / 1000})`.execute(db())
    return { slept: true }
  })
  return router
}

describe.each(servers)('PostgreSQL faults, $name', ({ start }) => {
  let server: RunningServer
  let database: Kysely<any>
  let errors: string[]
  beforeEach(async () => {
    database = createDatabase(postgres.url, { poolMax: 2, connectionTimeoutMs: 1000 })
    server = await listenOn(start, app(database))
    errors = []
    const logged = console.error
    console.error = (...args: unknown[]) => void errors.push(args.map(String).join(' '))
    return async () => {
      console.error = logged
      await server.close()
      await database.destroy()
      Container.setInstance(undefined)
    }
  })

  it('survives pg_terminate_backend of its idle pooled connections and answers 200 after', async () => {
    // Two requests at once leave two idle connections in the pool.
    const first = await Promise.all([fetch(`${server.url}/now`), fetch(`${server.url}/now`)])
    expect(first.map((res) => res.status)).toEqual([200, 200])
    expect(await terminateAppConnections()).toBeGreaterThanOrEqual(1)
    await new Promise((resolve) => setTimeout(resolve, 200))

    expect(errors.join('\n')).toMatch(/PostgreSQL closed an idle connection/)
    const after = await fetch(`${server.url}/now`)
    expect(after.status).toBe(200)
    expect(await readJson(after)).toEqual({ one: 1 })
  })

  it('answers 503 for a query whose connection is terminated while it runs, and 200 after', async () => {
    const slow = fetch(`${server.url}/slow/5000`)
    // Wait until the query runs, then end its session.
    const admin = createDatabase(postgres.url)
    try {
      for (let i = 0; i < 50; i++) {
        const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where query like 'select pg_sleep%'`.execute(admin)
        if (rows[0]!.n > 0) break
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    } finally {
      await admin.destroy()
    }
    expect(await terminateAppConnections()).toBeGreaterThanOrEqual(1)
    const answer = await slow
    expect(answer.status).toBe(503)
    expect(await readJson(answer)).toEqual({ error: 'Service Unavailable' })
    // The idle connections ended with it: their 'error' events take a moment to arrive and empty the pool.
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect((await fetch(`${server.url}/now`)).status).toBe(200)
  })

  it('answers 503 while PostgreSQL is down, keeps serving other routes, and recovers when it is back', async () => {
    expect((await fetch(`${server.url}/now`)).status).toBe(200)
    postgres.pause()
    try {
      const down = await fetch(`${server.url}/now`)
      expect(down.status).toBe(503)
      const body = await down.text()
      // Even with debug on, the driver's message (an address, a port) stays in the log.
      expect(JSON.parse(body)).toEqual({ error: 'Service Unavailable' })
      expect((await fetch(`${server.url}/ping`)).status).toBe(200)
      // The cause is logged (at most a line a second: this process may have just reported another).
      expect(errors.join('\n')).toMatch(/PostgreSQL closed an idle connection|database unavailable/)
    } finally {
      postgres.resume()
    }
    const back = await fetch(`${server.url}/now`)
    expect(back.status).toBe(200)
    expect(await readJson(back)).toEqual({ one: 1 })
  }, 30_000)
})

describe('pool settings on a real PostgreSQL', () => {
  async function fiveSlowQueries(config: Parameters<typeof createDatabase>[1], ms: number) {
    const database = createDatabase(postgres.url, config)
    const server = await listenOn(servers[0].start, app(database))
    const logged = console.error
    console.error = () => {}
    try {
      const started = Date.now()
      const answers = await Promise.all(
        Array.from({ length: 5 }, async () => {
          const res = await fetch(`${server.url}/slow/${ms}`)
          return { status: res.status, body: await readJson(res), at: Date.now() - started }
        }),
      )
      return answers.sort((a, b) => a.at - b.at)
    } finally {
      console.error = logged
      await server.close()
      await database.destroy()
      Container.setInstance(undefined)
    }
  }

  it('a pool of 2 with 5 slow queries: the waiting ones get their answers within the connection timeout', async () => {
    const answers = await fiveSlowQueries({ poolMax: 2, connectionTimeoutMs: 3000 }, 300)
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200])
    // Two at a time: the fifth waited for two rounds of queries before its own.
    expect(answers[4]!.at).toBeGreaterThanOrEqual(850)
  })

  it('a pool of 2 (DB_POOL_MAX) with 5 slow queries: the waiting ones get 503 after the connection timeout, not a hang', async () => {
    process.env.DB_POOL_MAX = '2'
    process.env.DB_CONNECTION_TIMEOUT_MS = '400'
    try {
      const answers = await fiveSlowQueries({}, 1500)
      expect(answers.map((answer) => answer.status)).toEqual([503, 503, 503, 200, 200])
      for (const answer of answers.slice(0, 3)) {
        expect(answer.body).toEqual({ error: 'Service Unavailable' })
        expect(answer.at).toBeGreaterThanOrEqual(350)
        expect(answer.at).toBeLessThan(1400)
      }
    } finally {
      delete process.env.DB_POOL_MAX
      delete process.env.DB_CONNECTION_TIMEOUT_MS
    }
  })

  it('a statement past the statement timeout is cancelled by the server and answered 503', async () => {
    const answers = await fiveSlowQueries({ statementTimeoutMs: 200 }, 2000)
    expect(answers.map((answer) => answer.status)).toEqual([503, 503, 503, 503, 503])
    expect(answers[4]!.at).toBeLessThan(1500)
  })
})
