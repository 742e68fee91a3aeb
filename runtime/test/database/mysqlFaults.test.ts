import { sql, type Kysely } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Container } from '../../src/container/Container.js'
import { createDatabase } from '../../src/database/createDatabase.js'
import type { DatabaseConfig } from '../../src/database/databaseConfig.js'
import { db, transaction } from '../../src/database/db.js'
import { Response } from '../../src/http/Response.js'
import { Router } from '../../src/routing/Router.js'
import type { RunningServer } from '../../src/server/listen.js'
import { startMariadb, type TestMariadb } from '../support/mariadb.js'
import { listenOn, readJson, servers } from '../support/servers.js'

// The faults of the README's PostgreSQL table, on a real MariaDB: each answers 503 and the same Kysely recovers.

let mariadb: TestMariadb
beforeAll(async () => {
  // A row lock waited for fails after 1 s, not the default 50.
  mariadb = await startMariadb(['--innodb-lock-wait-timeout=1'])
  await mariadb.query('create table notes (id integer primary key auto_increment, body varchar(255) not null)')
}, 60_000)
afterAll(() => mariadb?.stop())

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

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
    await sql`select sleep(${Number(request.param('ms')) / 1000})`.execute(db())
    return { slept: true }
  })
  router.post('/notes/slowly', async () => {
    await transaction(async (trx) => {
      await (trx as Kysely<any>).insertInto('notes').values({ body: 'never kept' }).execute()
      await sql`select sleep(5)`.execute(trx)
    })
    return { kept: true }
  })
  router.put('/notes/{id}', async (request) => {
    await (db() as Kysely<any>).updateTable('notes').set({ body: 'changed' }).where('id', '=', Number(request.param('id'))).execute()
    return { changed: true }
  })
  return router
}

/** Runs `work` against a server on a fresh database handle, collecting what Fw logs, then closes both. */
async function withApp(config: DatabaseConfig, work: (url: string, errors: string[], database: Kysely<any>) => Promise<void>): Promise<void> {
  const database = createDatabase<any>(mariadb.url, config)
  const server: RunningServer = await listenOn(servers[0].start, app(database))
  const errors: string[] = []
  const logged = console.error
  console.error = (...args: unknown[]) => void errors.push(args.map(String).join(' '))
  try {
    await work(server.url, errors, database)
  } finally {
    console.error = logged
    await server.close()
    await database.destroy()
    Container.setInstance(undefined)
  }
}

/** The ids of the application's sessions (every client session but the one asking). */
async function appSessions(where = 'true'): Promise<number[]> {
  const rows = await mariadb.query<{ id: number }>(`select id from information_schema.processlist where user = 'root' and id <> connection_id() and ${where}`)
  return rows.map((row) => Number(row.id))
}

async function killWhen(where: string, kill = 'kill'): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const ids = await appSessions(where)
    if (ids.length > 0) {
      for (const id of ids) await mariadb.query(`${kill} ${id}`)
      return
    }
    await sleep(50)
  }
  throw new Error(`no session matched ${where}`)
}

describe('MariaDB faults, answered 503, and recovered on the same Kysely', () => {
  it('survives KILL of its idle pooled connections and answers 200 after', () =>
    withApp({ poolMax: 2, connectionTimeoutMs: 1000 }, async (url, errors) => {
      const first = await Promise.all([fetch(`${url}/now`), fetch(`${url}/now`)])
      expect(first.map((res) => res.status)).toEqual([200, 200])
      const idle = await appSessions(`command = 'Sleep'`)
      expect(idle).toHaveLength(2)
      for (const id of idle) await mariadb.query(`kill ${id}`)
      await sleep(200)
      expect(errors.join('\n')).toMatch(/MySQL closed an idle connection/)
      const after = await fetch(`${url}/now`)
      expect(after.status).toBe(200)
      expect(await readJson(after)).toEqual({ one: 1 })
    }))

  it('answers 503 for a query whose connection is killed while it runs, and 200 after', () =>
    withApp({ poolMax: 2, connectionTimeoutMs: 1000 }, async (url) => {
      const slow = fetch(`${url}/slow/5000`)
      await killWhen(`info like 'select sleep%'`)
      const answer = await slow
      expect(answer.status).toBe(503)
      expect(await readJson(answer)).toEqual({ error: 'Service Unavailable' })
      expect((await fetch(`${url}/now`)).status).toBe(200)
    }))

  it('answers 503 for a transaction whose connection is killed, which the server rolled back, and 200 after', () =>
    withApp({ poolMax: 2, connectionTimeoutMs: 1000 }, async (url, errors) => {
      const slow = fetch(`${url}/notes/slowly`, { method: 'POST' })
      await killWhen(`info like 'select sleep%'`)
      const answer = await slow
      expect(await readJson(answer)).toEqual({ error: 'Service Unavailable' })
      expect(answer.status).toBe(503)
      expect(errors.join('\n')).not.toMatch(/closed state/)
      expect(await mariadb.query('select * from notes')).toEqual([])
      expect((await fetch(`${url}/now`)).status).toBe(200)
    }))

  it('answers 503 for a statement that KILL QUERY ends, and the connection serves the next', () =>
    withApp({ poolMax: 1, connectionTimeoutMs: 1000 }, async (url, errors) => {
      const slow = fetch(`${url}/slow/5000`)
      await killWhen(`info like 'select sleep%'`, 'kill query')
      const [session] = await appSessions()
      const answer = await slow
      expect(answer.status).toBe(503)
      expect(errors.join('\n')).toMatch(/Query execution was interrupted/)
      expect((await fetch(`${url}/now`)).status).toBe(200)
      expect(await appSessions()).toEqual([session])
    }))

  it('answers 503 while MariaDB is down, keeps serving other routes, and recovers when it is back', () =>
    withApp({ poolMax: 2, connectionTimeoutMs: 1000 }, async (url, errors) => {
      expect((await fetch(`${url}/now`)).status).toBe(200)
      await mariadb.pause()
      try {
        const down = await fetch(`${url}/now`)
        expect(down.status).toBe(503)
        // Even with debug on, the driver's message (an address, a port) stays in the log.
        expect(await readJson(down)).toEqual({ error: 'Service Unavailable' })
        expect((await fetch(`${url}/ping`)).status).toBe(200)
        expect(errors.join('\n')).toMatch(/MySQL closed an idle connection|database unavailable/)
      } finally {
        await mariadb.resume()
      }
      const back = await fetch(`${url}/now`)
      expect(back.status).toBe(200)
      expect(await readJson(back)).toEqual({ one: 1 })
    }), 30_000)

  it('answers 503 for a write that waits past innodb_lock_wait_timeout for a row another session holds', () =>
    withApp({ poolMax: 2, connectionTimeoutMs: 1000 }, async (url, errors) => {
      await mariadb.query(`insert into notes (id, body) values (7, 'held')`)
      const mysql2 = await import('mysql2/promise')
      const holder = await mysql2.createConnection({ uri: mariadb.url })
      try {
        await holder.query('begin')
        await holder.query('select * from notes where id = 7 for update')
        const started = Date.now()
        const answer = await fetch(`${url}/notes/7`, { method: 'PUT' })
        expect(answer.status).toBe(503)
        expect(Date.now() - started).toBeGreaterThanOrEqual(900)
        expect(errors.join('\n')).toMatch(/Lock wait timeout exceeded/)
        await holder.query('rollback')
        expect((await fetch(`${url}/notes/7`, { method: 'PUT' })).status).toBe(200)
      } finally {
        holder.destroy()
        await mariadb.query('delete from notes')
      }
    }))

  it('a statement past the statement timeout is stopped by the server and answered 503; its connection serves the next', () =>
    withApp({ poolMax: 1, statementTimeoutMs: 200 }, async (url, errors) => {
      const started = Date.now()
      const answer = await fetch(`${url}/slow/2000`)
      expect(answer.status).toBe(503)
      expect(Date.now() - started).toBeLessThan(1500)
      expect(errors.join('\n')).toMatch(/max_statement_time exceeded/)
      const [session] = await appSessions()
      expect((await fetch(`${url}/now`)).status).toBe(200)
      expect(await appSessions()).toEqual([session])
    }))

  it('a pool of 2 (DB_POOL_MAX) with 5 slow queries: the waiting ones get 503 after the connection timeout, then the same pool serves', async () => {
    process.env.DB_POOL_MAX = '2'
    process.env.DB_CONNECTION_TIMEOUT_MS = '400'
    try {
      await withApp({}, async (url) => {
        const started = Date.now()
        const answers = await Promise.all(
          Array.from({ length: 5 }, async () => {
            const res = await fetch(`${url}/slow/1500`)
            return { status: res.status, body: await readJson(res), at: Date.now() - started }
          }),
        )
        answers.sort((a, b) => a.at - b.at)
        expect(answers.map((answer) => answer.status)).toEqual([503, 503, 503, 200, 200])
        for (const answer of answers.slice(0, 3)) {
          expect(answer.body).toEqual({ error: 'Service Unavailable' })
          expect(answer.at).toBeGreaterThanOrEqual(350)
          expect(answer.at).toBeLessThan(1400)
        }
        const again = await Promise.all([fetch(`${url}/now`), fetch(`${url}/now`), fetch(`${url}/now`)])
        expect(again.map((res) => res.status)).toEqual([200, 200, 200])
      })
    } finally {
      delete process.env.DB_POOL_MAX
      delete process.env.DB_CONNECTION_TIMEOUT_MS
    }
  })

  it('answers 503 when the server stops answering (SIGSTOP) past the statement and connection timeouts, and 200 once it answers again', () =>
    withApp({ poolMax: 2, statementTimeoutMs: 300, connectionTimeoutMs: 500 }, async (url) => {
      expect((await fetch(`${url}/now`)).status).toBe(200)
      mariadb.freeze()
      try {
        const started = Date.now()
        const answers = await Promise.all([fetch(`${url}/now`), fetch(`${url}/now`)])
        expect(answers.map((res) => res.status)).toEqual([503, 503])
        expect(Date.now() - started).toBeLessThan(2000)
      } finally {
        mariadb.thaw()
      }
      expect((await fetch(`${url}/now`)).status).toBe(200)
    }))
})
