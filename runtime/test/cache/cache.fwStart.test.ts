import type { ChildProcess } from 'node:child_process'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createFwApp, listeningPort, startFw, stopProcesses, type FwApp } from '../support/fwApp.js'

/** A built app (plain JavaScript in dist/, as `npm run build` leaves it) whose routes use fw-runtime/cache. */
const ENTRY = `import { Container, Router, db, loadEnv, sql, start } from 'fw-runtime'
import { cache } from 'fw-runtime/cache'

loadEnv()
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
const router = new Router(Container.getInstance())
router.get('/report', async () => {
  const { acquired } = await cache().lock('reports:daily', 30).run(() => sleep(1500))
  return { acquired, pid: process.pid }
})
router.get('/computed', async () => {
  const value = await cache().remember('computed', 60, async () => {
    await sql\`create table if not exists computations (pid integer)\`.execute(db())
    await sql\`insert into computations (pid) values (\${process.pid})\`.execute(db())
    await sleep(500)
    return { by: process.pid, at: new Date(0) }
  })
  return { ...value, isDate: value.at instanceof Date, pid: process.pid }
})
router.get('/computations', async () => (await sql\`select pid from computations\`.execute(db())).rows)
await start(router)
`

let app: FwApp
const running: ChildProcess[] = []
beforeEach(() => {
  app = createFwApp()
  app.write('dist/public/index.js', ENTRY)
})
afterEach(async () => {
  await stopProcesses(running)
  app.remove()
})

/** Starts `fw start --workers=2` in the app, on the app's SQLite database, and resolves to its port once it listens. */
function startServer(): Promise<number> {
  const server = startFw(app.dir, ['start', '--workers=2'], { PORT: '0' })
  running.push(server.child)
  return listeningPort(server)
}

async function getJson(port: number, path: string): Promise<any> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`)
  expect(response.status).toBe(200)
  return response.json()
}

describe('fw-runtime/cache in a built app under two fw start --workers=2', () => {
  it('one lock runs exactly once across both servers, and remember computes once for all of them', async () => {
    const ports = await Promise.all([startServer(), startServer()])
    const reports = await Promise.all(Array.from({ length: 8 }, (_, index) => getJson(ports[index % 2]!, '/report')))
    expect(reports.filter((report) => report.acquired)).toHaveLength(1)
    expect(new Set(reports.map((report) => report.pid)).size).toBeGreaterThan(1)

    const values = await Promise.all(Array.from({ length: 8 }, (_, index) => getJson(ports[index % 2]!, '/computed')))
    const computations = (await getJson(ports[0]!, '/computations')) as { pid: number }[]
    expect(computations).toHaveLength(1)
    for (const value of values) expect(value).toMatchObject({ by: computations[0]!.pid, at: '1970-01-01T00:00:00.000Z', isDate: true })
  }, 60_000)
})
