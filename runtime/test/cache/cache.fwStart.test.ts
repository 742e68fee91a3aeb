import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { cleanEnv, createFwApp, FW, type FwApp } from '../support/fwApp.js'

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
  for (const child of running.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null) continue
    const exited = once(child, 'exit')
    child.kill('SIGTERM')
    const force = setTimeout(() => child.kill('SIGKILL'), 5_000)
    await exited
    clearTimeout(force)
  }
  app.remove()
})

/** Starts `fw start --workers=2` in the app, on the app's SQLite database, and resolves to its port once it listens. */
function startServer(): Promise<number> {
  const child = spawn(process.execPath, [FW, 'start', '--workers=2'], { cwd: app.dir, env: cleanEnv({ PORT: '0' }), stdio: ['ignore', 'pipe', 'pipe'] })
  running.push(child)
  let output = ''
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk
      const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output)
      if (match) resolve(Number(match[1]))
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.once('exit', (code) => reject(new Error(`fw start exited with ${code}: ${output}`)))
  })
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
