import type { ChildProcess } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Kysely } from 'kysely'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { createDatabase } from '../../src/database/createDatabase.js'
import { readMaintenance } from '../../src/maintenance/maintenanceTable.js'
import { DatabaseQueue } from '../../src/queue/DatabaseQueue.js'
import { pendingJob } from '../../src/queue/pendingJob.js'
import { PgBossQueue } from '../../src/queue/PgBossQueue.js'
import type { StoredQueue } from '../../src/queue/types.js'
import { createFwApp, listeningPort, startFw, stopProcesses, until, type FwApp, type RunningFw } from '../support/fwApp.js'
import { databases } from '../support/notesDatabase.js'
import { startPostgres, type TestPostgres } from '../support/postgres.js'

// Starting PostgreSQL for a block can take more than the default 10 s on a busy machine.
vi.setConfig({ hookTimeout: 60_000, testTimeout: 90_000 })

/** bootstrap/app.ts as the starters have it: maintenance mode first, for every request. */
const BOOTSTRAP = `import { maintenanceMode, type Container, type Router } from 'fw-runtime'

export function configure(container: Container, router: Router): void {
  router.use(maintenanceMode())
}
`

/** Its build, and the built server, as \`npm run build\` leaves them for fw start. */
const BUILT: Record<string, string> = {
  'dist/bootstrap/app.js': `import { maintenanceMode } from 'fw-runtime'

export function configure(container, router) {
  router.use(maintenanceMode())
}
`,
  'dist/public/index.js': `import { Container, Router, loadEnv, start } from 'fw-runtime'
import { configure } from '../bootstrap/app.js'

loadEnv()
const router = new Router(Container.getInstance())
configure(Container.getInstance(), router)
router.get('/', () => ({ pid: process.pid }))
router.get('/health', () => ({ status: 'healthy' }))
await start(router)
`,
}

const GREETER = `import { appendFileSync } from 'node:fs'
import { Job } from 'fw-runtime/queue'

export class Greeter extends Job<{ name: string }> {
  handle({ name }: { name: string }): void {
    appendFileSync('runs.log', \`Hello, \${name}\\n\`)
  }
}
`

describe.each(databases)('fw down and fw up on $name', ({ name }) => {
  let postgres: TestPostgres | undefined
  let app: FwApp
  let database: Kysely<any>
  const running: ChildProcess[] = []
  let url: string | undefined

  beforeAll(async () => {
    if (name === 'PostgreSQL') postgres = await startPostgres()
  })
  afterAll(() => postgres?.stop())
  beforeEach(() => {
    app = createFwApp()
    app.write('bootstrap/app.ts', BOOTSTRAP)
    for (const [path, content] of Object.entries(BUILT)) app.write(path, content)
    url = postgres?.url
    app.write('.env', `QUEUE_DRIVER=database\n${url ? `DATABASE_URL=${url}\n` : ''}`)
    database = createDatabase(url ?? `sqlite:${join(app.dir, 'database/database.sqlite')}`)
  })
  afterEach(async () => {
    await stopProcesses(running)
    await app.fw(['up'])
    await database.destroy()
    app.remove()
  })

  it('checks every option before it changes anything, and says what it did: down twice and up twice are not errors', async () => {
    for (const [args, message] of [
      [['--retry=0'], 'fw down: invalid --retry "0": use a whole number of seconds from 1'],
      [['--refresh=soon'], 'fw down: invalid --refresh "soon": use a whole number of seconds from 1'],
      [['--secret=short'], 'fw down: invalid --secret: use 8 to 128 letters, digits, - and _ (it becomes the path /<secret>), or --with-secret for a random one'],
      [['--secret=long-enough-1', '--with-secret'], 'fw down: give --secret=… or --with-secret, not both'],
      [['--render=resources/nowhere.html'], "fw down: --render names no file: resources/nowhere.html (an HTML file, relative to the app's folder)"],
      [['--retri=5'], 'fw down: unknown option "--retri". Did you mean "--retry"? (usage: fw down [--secret=<secret>|--with-secret] [--retry=60] [--refresh=<seconds>] [--render=<file.html>])'],
    ] as const) {
      expect(await app.fw(['down', ...args])).toEqual({ code: 1, stdout: '', stderr: `${message}\n` })
    }
    expect(await readMaintenance(database)).toBeNull()

    expect(await app.fw(['up'])).toEqual({ code: 0, stdout: 'The application is not down: nothing to do.\n', stderr: '' })
    app.write('resources/maintenance.html', '<h1>Back soon</h1>')
    const down = await app.fw(['down', '--retry=30', '--refresh=15', '--secret=open-sesame-42', '--render=resources/maintenance'], { APP_URL: 'https://shop.example.com/' })
    expect(down).toEqual({
      code: 0,
      stdout:
        'The application is now in maintenance mode: every process answers 503 within a second.\n' +
        'Bypass: open https://shop.example.com/open-sesame-42 to get through for 12 hours.\n',
      stderr: '',
    })
    const state = await readMaintenance(database)
    expect(state).toMatchObject({ retry: 30, refresh: 15, page: '<h1>Back soon</h1>' })
    expect(state!.secretHash).toMatch(/^[0-9a-f]{64}$/)
    expect(JSON.stringify(state)).not.toContain('open-sesame-42')

    const again = await app.fw(['down', '--retry=5'])
    expect(again.code).toBe(0)
    expect(again.stdout).toMatch(/^The application is already down \(since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\): nothing changed\. fw up brings it back\.\n$/)
    expect((await readMaintenance(database))?.retry).toBe(30)

    expect(await app.fw(['up'])).toEqual({ code: 0, stdout: 'The application is up.\n', stderr: '' })
    expect(await readMaintenance(database)).toBeNull()

    // An app whose bootstrap does not run maintenanceMode() is told so.
    app.write('bootstrap/app.ts', 'export function configure(): void {}\n')
    const unheard = await app.fw(['down', '--with-secret'])
    expect(unheard.code).toBe(0)
    expect(unheard.stdout).toMatch(/^Bypass: open \/[\w-]{32} to get through for 12 hours\.$/m)
    expect(unheard.stderr).toBe("Warning: bootstrap/app.ts does not run maintenanceMode(): add router.use(maintenanceMode()) there, or the app keeps answering.\n")
  })

  it('takes every process of every machine down within a second or two, /health still answering, and brings them back', async () => {
    // Two "machines" on one database: fw start with two workers, and another fw start.
    const first = await launch(['start', '--workers=2'])
    const second = await launch(['start', '--workers=1'])
    const statuses = async (port: number, path = '/') => {
      const answers = await Promise.all(Array.from({ length: 12 }, () => fetch(`http://127.0.0.1:${port}${path}`, { headers: { accept: 'application/json' } })))
      return answers
    }
    for (const port of [first, second]) expect(new Set((await statuses(port)).map((answer) => answer.status))).toEqual(new Set([200]))

    expect((await app.fw(['down', '--retry=45'])).code).toBe(0)
    const waited = await until(async () => {
      const answers = [...(await statuses(first)), ...(await statuses(second))]
      return answers.every((answer) => answer.status === 503)
    }, 'every process to answer 503', 10_000)
    expect(waited).toBeLessThan(3_000)
    const [answer] = await statuses(first)
    expect(answer!.headers.get('retry-after')).toBe('45')
    expect(await answer!.json()).toEqual({ error: 'Service Unavailable' })
    for (const port of [first, second]) expect(new Set((await statuses(port, '/health')).map((health) => health.status))).toEqual(new Set([200]))

    expect((await app.fw(['up'])).code).toBe(0)
    await until(async () => [...(await statuses(first)), ...(await statuses(second))].every((up) => up.status === 200), 'every process to answer 200', 10_000)
  })

  it('pauses queue workers while down, and a worker started with --force keeps working', async () => {
    app.write('App/Jobs/Greeter.ts', GREETER)
    const jobs: StoredQueue = url ? new PgBossQueue({ url, database: () => database }) : new DatabaseQueue(() => database)
    const runs = () => (existsSync(join(app.dir, 'runs.log')) ? readFileSync(join(app.dir, 'runs.log'), 'utf8').trim().split('\n') : [])
    const dispatch = (who: string) => jobs.push(pendingJob(Object.defineProperty(class {}, 'name', { value: 'Greeter' }) as never, { name: who }, {}))
    try {
      const worker = fwRunning(['queue:work'])
      await until(() => worker.output().includes('Fw queue worker'), 'the worker to start')
      await dispatch('Ada')
      await until(() => runs().includes('Hello, Ada'), 'the first job')

      expect((await app.fw(['down'])).code).toBe(0)
      await until(() => worker.output().includes('[fw] the app is down (fw down): no new job until fw up'), 'the worker to pause')
      await dispatch('Grace')
      await sleep(3_000)
      expect(runs()).toEqual(['Hello, Ada'])

      const forced = fwRunning(['queue:work', '--force', '--max-jobs=1'])
      expect(await forced.exited).toBe(0)
      expect(runs()).toEqual(['Hello, Ada', 'Hello, Grace'])

      await dispatch('Linus')
      await sleep(1_500)
      expect(runs()).toHaveLength(2)
      expect((await app.fw(['up'])).code).toBe(0)
      await until(() => runs().includes('Hello, Linus'), 'the job after fw up')
      expect(worker.output()).toContain('[fw] the app is up: taking jobs again')
    } finally {
      await jobs.close?.()
    }
  })

  function fwRunning(args: string[]): RunningFw {
    const started = startFw(app.dir, args)
    running.push(started.child)
    return started
  }

  /** `fw start` in the app on a port of its own; resolves to the port once it listens. */
  function launch(args: string[]): Promise<number> {
    const server = startFw(app.dir, args, { PORT: '0' })
    running.push(server.child)
    return listeningPort(server)
  }
})
