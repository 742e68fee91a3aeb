import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import type { Kysely } from 'kysely'
import { Container } from '../../src/container/Container.js'
import { createDatabase } from '../../src/database/createDatabase.js'
import { db } from '../../src/database/db.js'
import { Response } from '../../src/http/Response.js'
import { Router } from '../../src/routing/Router.js'
import { listenOn, readJson, servers } from '../support/servers.js'

const betterSqlite3 = createRequire(import.meta.url).resolve('better-sqlite3')

/** Another process that takes the file's write lock and keeps it until it is told to let go (a line on stdin). */
async function holdWriteLock(file: string): Promise<{ release(): Promise<void>; process: ChildProcess }> {
  const script = `
    const Database = require(${JSON.stringify(betterSqlite3)})
    const db = new Database(${JSON.stringify(file)})
    db.exec('begin immediate')
    db.prepare('insert into notes (title) values (?)').run('from the other process')
    process.stdout.write('locked\\n')
    process.stdin.once('data', () => { db.exec('commit'); db.close(); process.exit(0) })`
  const child = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'inherit'] })
  await once(child.stdout!, 'data')
  return {
    process: child,
    async release() {
      if (child.exitCode !== null) return
      child.stdin!.write('go\n')
      await once(child, 'exit')
    },
  }
}

/** The `db()` service, untyped: the test's table is not in the application's `Tables`. */
const notes = () => db() as unknown as Kysely<any>

function app(): Router {
  const router = new Router(Container.getInstance())
  router.get('/ping', () => Response.json({ pong: true }))
  router.get('/notes', async () => notes().selectFrom('notes').select('title').orderBy('id').execute())
  // Two rows in one transaction: both or neither.
  router.post('/notes', async () => {
    await notes()
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto('notes').values({ title: 'first half' }).execute()
        await trx.insertInto('notes').values({ title: 'second half' }).execute()
      })
    return Response.json({ saved: true }, 201)
  })
  return router
}

/**
 * A client in another process that times GET requests once told to (`measure()`): a client in this
 * process would stall with the server when the event loop blocks, and see nothing wrong.
 */
async function outsideClient(url: string, count: number): Promise<{ measure(): Promise<{ status: number; ms: number }[]> }> {
  const script = `
    // The first fetch of a process loads its HTTP client: done before the measurement.
    await (await fetch(${JSON.stringify(url)})).arrayBuffer()
    process.stdout.write('ready\\n')
    await new Promise((resolve) => process.stdin.once('data', resolve))
    const answers = []
    for (let i = 0; i < ${count}; i++) {
      const started = performance.now()
      const res = await fetch(${JSON.stringify(url)})
      await res.arrayBuffer()
      answers.push({ status: res.status, ms: performance.now() - started })
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    process.stdout.write(JSON.stringify(answers))
    process.exit(0)`
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'inherit'] })
  let output = ''
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk))
  while (!output.includes('ready\n')) await once(child.stdout!, 'data')
  return {
    async measure() {
      child.stdin!.write('go\n')
      await once(child, 'exit')
      return JSON.parse(output.slice(output.indexOf('\n') + 1))
    },
  }
}

async function timed(url: string, init?: RequestInit): Promise<{ status: number; ms: number }> {
  const started = performance.now()
  const res = await fetch(url, init)
  await res.arrayBuffer()
  return { status: res.status, ms: performance.now() - started }
}

describe.each(servers)('SQLite write lock held by another process, $name', ({ start }) => {
  let folder: string
  let file: string
  let database: Kysely<any>
  beforeEach(async () => {
    folder = mkdtempSync(join(tmpdir(), 'fw-sqlite-lock-'))
    file = join(folder, 'app.sqlite')
    const setup = createDatabase(`sqlite:${file}`)
    await setup.schema.createTable('notes').addColumn('id', 'integer', (c) => c.primaryKey()).addColumn('title', 'text').execute()
    await setup.destroy()
    return async () => {
      await database?.destroy()
      Container.setInstance(undefined)
      rmSync(folder, { recursive: true, force: true })
    }
  })

  function serveWith(busyTimeoutMs: number) {
    database = createDatabase(`sqlite:${file}`, { busyTimeoutMs })
    Container.setInstance(new Container().instance('db', database))
    return listenOn(start, app())
  }

  it('keeps other routes answering while a write waits, then answers the write 503 and writes nothing of it', async () => {
    const server = await serveWith(1500)
    const errors: string[] = []
    const logged = console.error
    console.error = (...args: unknown[]) => void errors.push(args.map(String).join(' '))
    const lock = await holdWriteLock(file)
    const client = await outsideClient(`${server.url}/ping`, 5)
    try {
      const write = timed(`${server.url}/notes`, { method: 'POST' })
      // While the write waits for the lock, a route without the database answers at once.
      const pings = await client.measure()
      expect(pings.map((ping) => ping.status)).toEqual([200, 200, 200, 200, 200])
      for (const ping of pings) expect(ping.ms).toBeLessThan(200)
      const answer = await write
      expect(answer.status).toBe(503)
      expect(errors.join('\n')).toMatch(/database unavailable: database is locked/)
    } finally {
      console.error = logged
      await lock.release()
    }
    const notes = await fetch(`${server.url}/notes`)
    expect(await readJson(notes)).toEqual([{ title: 'from the other process' }])
    await server.close()
  })

  it('lets a waiting write through once the other process commits', async () => {
    const server = await serveWith(5000)
    const lock = await holdWriteLock(file)
    const client = await outsideClient(`${server.url}/ping`, 3)
    const write = timed(`${server.url}/notes`, { method: 'POST' })
    const pings = await client.measure()
    for (const ping of pings) expect(ping.ms).toBeLessThan(200)
    await lock.release()
    expect((await write).status).toBe(201)
    const notes = await fetch(`${server.url}/notes`)
    expect(await readJson(notes)).toEqual([{ title: 'from the other process' }, { title: 'first half' }, { title: 'second half' }])
    await server.close()
  })
})
