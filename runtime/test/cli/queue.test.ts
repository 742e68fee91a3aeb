import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { sql, type Kysely } from 'kysely'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createDatabase } from '../../src/database/createDatabase.js'
import { DatabaseQueue } from '../../src/queue/DatabaseQueue.js'
import { pendingJob } from '../../src/queue/pendingJob.js'
import { PgBossQueue } from '../../src/queue/PgBossQueue.js'
import type { DispatchOptions, StoredQueue } from '../../src/queue/types.js'
import { cleanEnv, createFwApp, isRunning, startFw, until, type FwApp, type RunningFw } from '../support/fwApp.js'
import { startPostgres, type TestPostgres } from '../support/postgres.js'

/**
 * The app's jobs, as a user writes them. Each run of a job appends a line to runs.log (`start <n> <pid>`, then
 * `done <n>`): the log counts executions. `Sleepy` waits for a minute on its first run (a run to kill), and finishes
 * at once on the next ones; `Greeter` takes a service from bootstrap/app.ts.
 */
const JOBS: Record<string, string> = {
  'App/Jobs/Greeter.ts': `import { appendFileSync } from 'node:fs'
import type { Cradle } from 'fw-runtime'
import { Job } from 'fw-runtime/queue'

export class Greeter extends Job<{ name: string }> {
  constructor(private readonly services: Cradle) {
    super()
  }

  async handle({ name }: { name: string }): Promise<void> {
    appendFileSync('runs.log', \`\${this.services.greeting as string}, \${name}\\n\`)
  }
}
`,
  'App/Jobs/Sleepy.ts': `import { appendFileSync, existsSync, readFileSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import { Job } from 'fw-runtime/queue'

export class Sleepy extends Job<{ n: number; ms?: number }> {
  async handle({ n, ms }: { n: number; ms?: number }): Promise<void> {
    const before = existsSync('runs.log') ? readFileSync('runs.log', 'utf8').split('\\n').filter((line) => line.startsWith(\`start \${n} \`)).length : 0
    appendFileSync('runs.log', \`start \${n} \${process.pid}\\n\`)
    await sleep(ms ?? (before === 0 ? 60_000 : 0))
    appendFileSync('runs.log', \`done \${n}\\n\`)
  }
}
`,
  'App/Jobs/Poison.ts': `import { Job } from 'fw-runtime/queue'

export class Poison extends Job {
  handle(): void {
    throw new TypeError('cannot read the upload')
  }
}
`,
  'bootstrap/app.ts': `import type { Container, Router } from 'fw-runtime'

export function configure(container: Container, router: Router): void {
  container.instance('greeting', 'Hello')
}
`,
}

let app: FwApp
let database: Kysely<any>
/** The app's queue, as its routes dispatch to it. */
let jobs: StoredQueue
const started: ChildProcess[] = []

/** An app with the jobs above and `QUEUE_DRIVER=database`, on SQLite, or on PostgreSQL when given its URL. */
function makeApp(postgresUrl?: string): void {
  app = createFwApp()
  for (const [path, content] of Object.entries(JOBS)) app.write(path, content)
  app.write('.env', `QUEUE_DRIVER=database\n${postgresUrl ? `DATABASE_URL=${postgresUrl}\n` : ''}`)
  database = createDatabase(postgresUrl ?? `sqlite:${join(app.dir, 'database/database.sqlite')}`)
  jobs = postgresUrl ? new PgBossQueue({ url: postgresUrl, database: () => database }) : new DatabaseQueue(() => database)
}

async function removeApp(): Promise<void> {
  for (const child of started) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL')
      await once(child, 'exit')
    }
  }
  started.length = 0
  await jobs.close?.()
  await database.destroy()
  app.remove()
}


/** Dispatches a job of the app by its class name, into the app's own database, as its routes would. */
async function dispatch(name: string, payload: unknown = undefined, options: DispatchOptions = {}): Promise<void> {
  const job = Object.defineProperty(class {}, 'name', { value: name }) as never
  await jobs.push(pendingJob(job, payload, options))
}

/** The lines of runs.log: what the jobs did. */
const runs = () => (existsSync(join(app.dir, 'runs.log')) ? readFileSync(join(app.dir, 'runs.log'), 'utf8').trim().split('\n') : [])

const jobRows = async () => (await sql<Record<string, any>>`select * from fw_jobs order by id`.execute(database)).rows

/** An `fw` command running in the app, stopped after the test. */
function fwRunning(args: string[], env: NodeJS.ProcessEnv = {}): RunningFw {
  const running = startFw(app.dir, args, env)
  started.push(running.child)
  return running
}

/** `fw queue:work` running in the app. */
const work = (args: string[] = [], env: NodeJS.ProcessEnv = {}) => fwRunning(['queue:work', ...args], env)

describe('fw queue:work', () => {
  beforeEach(() => makeApp())
  afterEach(removeApp)

  it('says what to set when the queue stores no job, and refuses bad options', async () => {
    app.write('.env', 'QUEUE_DRIVER=sync\n')
    const sync = await app.fw(['queue:work', '--once'])
    expect(sync).toMatchObject({ code: 1, stdout: '' })
    expect(sync.stderr).toBe('QUEUE_DRIVER=sync keeps no jobs for a worker (sync runs each at dispatch): set QUEUE_DRIVER=database\n')
    for (const [option, message] of [
      ['--concurrency=0', 'Invalid --concurrency "0": use a whole number from 1'],
      ['--max-jobs=two', 'Invalid --max-jobs "two": use a whole number from 1'],
      ['--queue=mail:high', 'Invalid --queue "mail:high": name queues with letters, digits and _ . -, separated by commas'],
    ]) {
      expect(await app.fw(['queue:work', option!])).toMatchObject({ code: 1, stderr: `${message}\n` })
    }
  })

  it('runs the next job with --once, built with the services bootstrap/app.ts binds, and exits 0', async () => {
    await dispatch('Greeter', { name: 'Ada' })
    await dispatch('Greeter', { name: 'Grace' })
    const result = await app.fw(['queue:work', '--once'])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/^Fw queue worker \S+ on default \(concurrency 1\): Greeter, Poison, SendQueuedMail, Sleepy\n/)
    expect(result.stdout).toMatch(/ Greeter #1 done /)
    expect(result.stdout).toMatch(/Stopped \(once\) after 1 job\.\n$/)
    expect(runs()).toEqual(['Hello, Ada'])
    expect((await jobRows()).map((row) => row.payload)).toEqual(['{"name":"Grace"}'])
  })

  it('loads the routes as the web process does: a job builds its links with Route.url, absoluteUrl and signedUrl', async () => {
    app.write('routes/web.ts', "import { Route } from 'fw-runtime'\n\nRoute.get('/orders/{order}', () => 'an order').name('orders.show')\n")
    app.write('App/Jobs/Linker.ts', `import { appendFileSync } from 'node:fs'
import { Route } from 'fw-runtime'
import { Job } from 'fw-runtime/queue'

export class Linker extends Job<{ order: number }> {
  handle({ order }: { order: number }): void {
    appendFileSync('runs.log', [Route.url('orders.show', { order }), Route.absoluteUrl('orders.show', { order }), Route.signedUrl('orders.show', { order })].join('\\n') + '\\n')
  }
}
`)
    app.write('.env', 'QUEUE_DRIVER=database\nAPP_URL=http://shop.example.test:8080\nAPP_KEY=base64:MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=\n')
    await dispatch('Linker', { order: 7 })
    const result = await app.fw(['queue:work', '--once'])
    expect(result.stderr).toBe('')
    expect(result.stdout).toMatch(/ Linker #1 done /)
    const [path, absolute, signed] = runs()
    expect(path).toBe('/orders/7')
    expect(absolute).toBe('http://shop.example.test:8080/orders/7')
    expect(signed).toMatch(/^http:\/\/shop\.example\.test:8080\/orders\/7\?signature=[\w-]+$/)
  })

  it('logs JSON lines with LOG_FORMAT=json: a job\'s within a second while it runs, an error\'s at once, the rest at exit', async () => {
    const jsonLines = (output: string) => output.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>)
    const worker = work([], { LOG_FORMAT: 'json' })
    await until(() => worker.output().includes('Fw queue worker'), 'the worker to start')
    await dispatch('Greeter', { name: 'Ada' })
    // Its line waits for no block: the timer writes it out within a second of the job.
    await until(() => jsonLines(worker.output()).some((line) => line.msg === 'Greeter #1 done'), 'the line of the job')
    await dispatch('Poison', undefined, { attempts: 1 })
    await until(() => jsonLines(worker.output()).some((line) => line.msg === '[fw] Poison #2 threw: it failed (fw queue:failed lists it)'), 'the line of the error')
    worker.child.kill('SIGTERM')
    expect(await worker.exited).toBe(0)
    const [done, threw] = jsonLines(worker.output())
    expect(done).toMatchObject({ level: 30, msg: 'Greeter #1 done', job: 'Greeter', id: '1', attempt: '1/3' })
    expect(threw).toMatchObject({ level: 50, job: 'Poison', error: { type: 'TypeError', message: 'cannot read the upload' } })

    // A worker that exits at once (--once) writes its lines before it goes.
    await dispatch('Greeter', { name: 'Grace' })
    const once = await app.fw(['queue:work', '--once'], { LOG_FORMAT: 'json' })
    expect(once.code).toBe(0)
    expect(jsonLines(once.stdout)).toMatchObject([{ msg: 'Greeter #3 done' }])
  })

  it('fails a poison job after its attempts with its error and stack; queue:failed, queue:retry and queue:flush', async () => {
    await dispatch('Poison', undefined, { attempts: 3, backoff: 0 })
    const worked = await app.fw(['queue:work', '--max-jobs=3'])
    expect(worked.code).toBe(0)
    expect(worked.stderr.match(/Poison #1 threw: it will run again/g)).toHaveLength(2)
    expect(worked.stderr).toMatch(/Poison #1 threw: it failed \(fw queue:failed lists it\)/)
    expect(worked.stderr).toMatch(/TypeError: cannot read the upload\n\s+at Poison\.handle/)

    const listed = await app.fw(['queue:failed'])
    expect(listed.code).toBe(0)
    const lines = listed.stdout.trimEnd().split('\n')
    expect(lines[0]).toMatch(/^ID\s+Queue\s+Job\s+Attempts\s+Failed at \(UTC\)\s+Error$/)
    expect(lines[2]).toMatch(/^1\s+default\s+Poison\s+3\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s+TypeError: cannot read the upload$/)
    const [row] = await jobRows()
    expect(JSON.parse(row!.last_error).stack).toMatch(/^TypeError: cannot read the upload\n\s+at /)

    expect(await app.fw(['queue:retry', '9'])).toMatchObject({ code: 1, stderr: 'No failed job 9: fw queue:failed lists them\n' })
    expect(await app.fw(['queue:retry', 'one two'])).toMatchObject({ code: 1, stderr: 'Invalid job id "one two": give the ID fw queue:failed lists, or all\n' })
    expect(await app.fw(['queue:retry', '1'])).toMatchObject({ code: 0, stdout: 'Queued 1 failed job again.\n' })
    expect((await jobRows())[0]).toMatchObject({ state: 'ready', attempts: 0 })
    expect(await app.fw(['queue:failed'])).toMatchObject({ code: 0, stdout: 'No failed jobs.\n' })
    expect((await app.fw(['queue:work', '--max-jobs=3'])).code).toBe(0)
    expect(await app.fw(['queue:flush'])).toMatchObject({ code: 0, stdout: 'Deleted 1 failed job.\n' })
    expect(await jobRows()).toEqual([])
    expect(await app.fw(['queue:flush'])).toMatchObject({ code: 0, stdout: 'No failed jobs.\n' })
  })

  it('on SIGTERM takes no new job, finishes the ones in flight and exits 0', async () => {
    await dispatch('Sleepy', { n: 1, ms: 1_500 })
    await dispatch('Sleepy', { n: 2, ms: 0 })
    const worker = work()
    await until(() => runs().length === 1, 'the first job to start')
    worker.child.kill('SIGTERM')
    expect(await worker.exited).toBe(0)
    expect(worker.output()).toMatch(/SIGTERM: finishing the jobs in flight, then exiting/)
    expect(runs()).toEqual([expect.stringMatching(/^start 1 /), 'done 1'])
    expect((await jobRows()).map((row) => [JSON.parse(row.payload).n, row.state])).toEqual([[2, 'ready']])
  })

  it('runs a job again within 60 s when its worker is killed with -9 in the middle, once, by another worker', async () => {
    await dispatch('Sleepy', { n: 1 })
    const first = work()
    await until(() => runs().length === 1, 'the job to start')
    const second = work(['--concurrency=2'])
    await until(() => second.output().includes('Fw queue worker'), 'the second worker to start')
    first.child.kill('SIGKILL')
    await first.exited
    const rerun = await until(() => runs().includes('done 1'), 'the job to run again', 60_000)
    expect(rerun).toBeLessThan(60_000)
    const starts = runs().filter((line) => line.startsWith('start 1 '))
    expect(starts).toEqual([`start 1 ${first.child.pid}`, `start 1 ${second.child.pid}`])
    expect(runs().filter((line) => line === 'done 1')).toHaveLength(1)
    await until(async () => (await jobRows()).length === 0, 'the job to be deleted')
    second.child.kill('SIGTERM')
    expect(await second.exited).toBe(0)
  }, 90_000)
})

/** Resolves with the port once a server command prints that it listens. */
async function listening(server: RunningFw): Promise<number> {
  await until(() => /listening on http:\/\/127\.0\.0\.1:\d+/.test(server.output()), 'the server to listen')
  return Number(/listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(server.output())![1])
}

describe('workers that come with the servers', () => {
  beforeEach(() => makeApp())
  afterEach(removeApp)

  it('fw serve runs a job dispatched by a route in its own process, with no second terminal', async () => {
    app.write(
      'routes/web.ts',
      [
        "import { Route } from 'fw-runtime'",
        "import { Sleepy } from '#app/Jobs/Sleepy.js'",
        '',
        "Route.post('/nap', async () => {",
        '  await Sleepy.dispatch({ n: 5, ms: 0 })',
        '  return { queued: true }',
        '})',
        '',
      ].join('\n'),
    )
    const server = fwRunning(['serve'], { PORT: '0' })
    const port = await listening(server)
    expect(server.output()).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+ \(with a queue worker\)/)
    const response = await fetch(`http://127.0.0.1:${port}/nap`, { method: 'POST' })
    expect([response.status, await response.json()]).toEqual([200, { queued: true }])
    await until(() => runs().includes('done 5'), 'the job to run')
    const [start] = runs()
    // Run by the app's own process: fw serve's child, not fw serve.
    expect(start).toMatch(/^start 5 \d+$/)
    expect(Number(start!.split(' ')[2])).not.toBe(server.child.pid)
    server.child.kill('SIGTERM')
    expect(await server.exited).toBe(0)
    expect(await jobRows()).toEqual([])
  })

  it('fw serve runs no worker, and polls no queue, while the app has no job (QUEUE_DRIVER unset: the database)', async () => {
    rmSync(join(app.dir, 'App/Jobs'), { recursive: true })
    app.write('.env', '')
    const server = fwRunning(['serve'], { PORT: '0' })
    await listening(server)
    expect(server.output()).not.toContain('queue worker')
    const tables = await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name = 'fw_jobs'`.execute(database)
    expect(tables.rows).toEqual([])
    server.child.kill('SIGTERM')
    expect(await server.exited).toBe(0)
  })

  it('fw start --queue-workers runs workers on the build beside the web workers, and stops them with itself', async () => {
    app.write('dist/public/index.js', "import { Container, Router, loadEnv, start } from 'fw-runtime'\n\nloadEnv()\nawait start(new Router(Container.getInstance()))\n")
    app.write(
      'dist/App/Jobs/Sleepy.js',
      [
        "import { appendFileSync } from 'node:fs'",
        "import { Job } from 'fw-runtime/queue'",
        '',
        'export class Sleepy extends Job {',
        '  handle({ n }) {',
        '    appendFileSync(\'runs.log\', `start ${n} ${process.pid}\\ndone ${n}\\n`)',
        '  }',
        '}',
        '',
      ].join('\n'),
    )
    app.write('.env', 'QUEUE_DRIVER=sync\n')
    const sync = await app.fw(['start', '--queue-workers=1'], { PORT: '0' })
    expect(sync).toMatchObject({ code: 1, stderr: '--queue-workers runs the jobs a queue stores, and QUEUE_DRIVER=sync runs each at dispatch: set QUEUE_DRIVER=database\n' })
    expect(await app.fw(['start', '--queue-workers=none'], { PORT: '0' })).toMatchObject({ code: 1, stderr: 'Invalid --queue-workers "none": use a whole number from 1, or auto for one per CPU\n' })

    // Under the default driver, a build with jobs and no worker beside it starts, and says that its jobs would wait.
    app.write('.env', '')
    const alone = fwRunning(['start'], { PORT: '0' })
    await listening(alone)
    expect(alone.output()).toContain(
      "[fw] QUEUE_DRIVER=database keeps the app's jobs for a worker, and none runs here: add --queue-workers=N, run fw queue:work beside it, or set QUEUE_DRIVER=sync to run each at dispatch\n",
    )
    alone.child.kill('SIGTERM')
    expect(await alone.exited).toBe(0)

    app.write('.env', 'QUEUE_DRIVER=database\n')
    const server = fwRunning(['start', '--queue-workers=1'], { PORT: '0' })
    await listening(server)
    await until(() => server.output().includes('Fw queue worker'), 'the queue worker to start')
    await dispatch('Sleepy', { n: 7 })
    await until(() => runs().includes('done 7'), 'the job to run')
    const worker = Number(runs()[0]!.split(' ')[2])
    expect(worker).not.toBe(server.child.pid)

    // A queue worker that dies is replaced.
    process.kill(worker, 'SIGKILL')
    await until(() => /queue worker \d+ died \(signal SIGKILL\): starting a replacement/.test(server.output()), 'the death to be seen')
    await until(() => server.output().match(/Fw queue worker/g)!.length === 2, 'the replacement to start')
    await dispatch('Sleepy', { n: 8 })
    await until(() => runs().includes('done 8'), 'the replacement to run a job')
    const replacement = Number(runs()[2]!.split(' ')[2])

    server.child.kill('SIGTERM')
    expect(await server.exited).toBe(0)
    expect(isRunning(replacement)).toBe(false)
  }, 60_000)

  it('fw start killed with -9 leaves no queue worker or scheduler running on alone: each exits within seconds', async () => {
    app.write('dist/public/index.js', "import { Container, Router, loadEnv, start } from 'fw-runtime'\n\nloadEnv()\nawait start(new Router(Container.getInstance()))\n")
    app.write('dist/bootstrap/schedule.js', "import { schedule } from 'fw-runtime/schedule'\n\nschedule.call('nothing', () => undefined).everyMinute()\n")
    app.write('dist/App/Jobs/Sleepy.js', "import { Job } from 'fw-runtime/queue'\n\nexport class Sleepy extends Job {\n  handle() {}\n}\n")
    const server = fwRunning(['start', '--queue-workers=1', '--scheduler'], { PORT: '0' })
    await listening(server)
    await until(() => /Fw queue worker \S+:(\d+):/.test(server.output()) && /Fw scheduler (\d+)/.test(server.output()), 'the queue worker and the scheduler to start')
    const worker = Number(/Fw queue worker \S+:(\d+):/.exec(server.output())![1])
    const scheduler = Number(/Fw scheduler (\d+)/.exec(server.output())![1])
    server.child.kill('SIGKILL')
    await until(() => !isRunning(worker) && !isRunning(scheduler), 'the queue worker and the scheduler to exit', 10_000)
    expect(server.output()).toContain('[fw] fw start is gone: finishing the jobs in flight, then exiting')
    expect(server.output()).toContain('[fw] fw start is gone: finishing the scheduled runs in flight, then exiting')
  }, 60_000)

  it('fw start on SIGHUP runs the new build in its web workers, queue workers and scheduler; fw queue:restart renews the queue workers', async () => {
    // Each kind of process says which build it runs: the page, the job and the scheduled task read one constant.
    const build = (version: string) => {
      app.write('dist/version.js', `export const VERSION = '${version}'\n`)
      app.write('dist/routes/web.js', "import { Route } from 'fw-runtime'\nimport { VERSION } from '../version.js'\n\nRoute.get('/version', () => ({ version: VERSION }))\n")
      app.write(
        'dist/App/Jobs/Report.js',
        "import { appendFileSync } from 'node:fs'\nimport { Job } from 'fw-runtime/queue'\nimport { VERSION } from '../../version.js'\n\nexport class Report extends Job {\n  handle({ n }) {\n    appendFileSync('runs.log', `job ${n} ${VERSION} ${process.pid}\\n`)\n  }\n}\n",
      )
      app.write(
        'dist/bootstrap/schedule.js',
        "import { appendFileSync } from 'node:fs'\nimport { schedule } from 'fw-runtime/schedule'\nimport { VERSION } from '../version.js'\n\nschedule.call('beat', () => appendFileSync('runs.log', `beat ${VERSION} ${process.pid}\\n`)).everySecond()\n",
      )
    }
    app.write('dist/public/index.js', "import { Container, Router, loadEnv, start } from 'fw-runtime'\n\nloadEnv()\nconst router = new Router(Container.getInstance())\nawait router.loadRoutesFromFile(new URL('../routes/web.js', import.meta.url))\nawait start(router)\n")
    build('v1')
    const server = fwRunning(['start', '--workers=2', '--queue-workers=1', '--scheduler'], { PORT: '0' })
    const port = await listening(server)
    const page = async () => ((await (await fetch(`http://127.0.0.1:${port}/version`)).json()) as { version: string }).version
    await until(() => server.output().includes('Fw queue worker') && runs().some((line) => line.startsWith('beat v1')), 'the queue worker and the scheduler to start')
    await dispatch('Report', { n: 1 })
    await until(() => runs().some((line) => line.startsWith('job 1 ')), 'the job to run')
    expect(runs().find((line) => line.startsWith('job 1 '))).toMatch(/^job 1 v1 /)
    expect(await page()).toBe('v1')

    build('v2')
    server.child.kill('SIGHUP')
    await until(() => server.output().includes('[fw] every worker replaced'), 'the web workers to be replaced')
    await until(() => runs().some((line) => line.startsWith('beat v2')), 'the new scheduler to run the new build')
    await until(() => server.output().match(/Fw queue worker/g)!.length === 2, 'the new queue worker to start')
    // Every answer now comes from the new build, whichever web worker takes it.
    for (let i = 0; i < 6; i++) expect(await page()).toBe('v2')
    await dispatch('Report', { n: 2 })
    await until(() => runs().some((line) => line.startsWith('job 2 ')), 'the job to run after the reload')
    expect(runs().find((line) => line.startsWith('job 2 '))).toMatch(/^job 2 v2 /)
    // The old scheduler is gone: a second later, every beat is the new build's.
    const beatsBefore = runs().length
    await sleep(1_500)
    expect(runs().slice(beatsBefore).filter((line) => line.startsWith('beat v1'))).toEqual([])

    // fw queue:restart: the worker finishes and exits 0, fw start starts a new one at once, which runs the next job.
    build('v3')
    const worker = Number(runs().find((line) => line.startsWith('job 2 '))!.split(' ')[3])
    expect(await app.fw(['queue:restart'])).toMatchObject({ code: 0, stdout: 'Told the queue workers to restart once their jobs in flight are done.\n' })
    await until(() => new RegExp(`queue worker ${worker} exited: starting a new one`).test(server.output()), 'the worker to exit for the restart')
    expect(server.output()).toContain('[fw] fw queue:restart: finishing the jobs in flight, then exiting')
    await until(() => server.output().match(/Fw queue worker/g)!.length === 3, 'the new queue worker to start')
    await dispatch('Report', { n: 3 })
    await until(() => runs().some((line) => line.startsWith('job 3 ')), 'the job to run after the restart')
    expect(runs().find((line) => line.startsWith('job 3 '))).toMatch(/^job 3 v3 /)
    expect(isRunning(worker)).toBe(false)

    server.child.kill('SIGTERM')
    expect(await server.exited).toBe(0)
  }, 90_000)
})

describe('fw queue:work on PostgreSQL (pg-boss), under faults', () => {
  let postgres: TestPostgres
  beforeAll(async () => {
    postgres = await startPostgres()
  })
  afterAll(() => postgres?.stop())
  beforeEach(() => makeApp(postgres.url))
  afterEach(async () => {
    await sql`delete from pgboss.job`.execute(database).catch(() => undefined)
    await removeApp()
  })

  const states = async () => (await sql<{ state: string }>`select state::text as state from pgboss.job order by created_on`.execute(database)).rows.map((row) => row.state)

  it('runs a job again within 60 s when its worker is killed with -9 in the middle, once, by another worker', async () => {
    await dispatch('Sleepy', { n: 1 })
    const first = work()
    await until(() => runs().length === 1, 'the job to start')
    const second = work()
    await until(() => second.output().includes('Fw queue worker'), 'the second worker to start')
    first.child.kill('SIGKILL')
    await first.exited
    const rerun = await until(() => runs().includes('done 1'), 'the job to run again', 60_000)
    expect(rerun).toBeLessThan(60_000)
    expect(runs().filter((line) => line.startsWith('start 1 '))).toEqual([`start 1 ${first.child.pid}`, `start 1 ${second.child.pid}`])
    expect(runs().filter((line) => line === 'done 1')).toHaveLength(1)
    await until(async () => (await states()).every((state) => state === 'completed'), 'the job to be completed')
    second.child.kill('SIGTERM')
    expect(await second.exited).toBe(0)
  }, 90_000)

  it('lists a failed job by its id, puts it back and flushes it', async () => {
    await dispatch('Poison', undefined, { attempts: 1, backoff: 0 })
    expect((await app.fw(['queue:work', '--once'])).code).toBe(0)
    const listed = await app.fw(['queue:failed'])
    const id = /^([0-9a-f-]{36})\s+default\s+Poison\s+1\s+[\d-]+ [\d:]+\s+TypeError: cannot read the upload$/m.exec(listed.stdout)?.[1]
    expect(id, listed.stdout).toBeDefined()
    expect(await app.fw(['queue:retry', id!])).toMatchObject({ code: 0, stdout: 'Queued 1 failed job again.\n' })
    expect(await states()).toEqual(['retry'])
    expect((await app.fw(['queue:work', '--once'])).code).toBe(0)
    expect(await app.fw(['queue:flush'])).toMatchObject({ code: 0, stdout: 'Deleted 1 failed job.\n' })
    expect(await states()).toEqual([])
  })

  it('keeps working through a PostgreSQL restart: no worker exits, no job is lost or left active', async () => {
    for (let n = 1; n <= 10; n++) await dispatch('Sleepy', { n, ms: 200 })
    const workers = [work(['--concurrency=2']), work(['--concurrency=2'])]
    await until(() => runs().some((line) => line.startsWith('done ')), 'the first job to be done')
    postgres.pause()
    await sleep(3_000)
    postgres.resume()
    for (let n = 11; n <= 15; n++) await dispatch('Sleepy', { n, ms: 0 })
    await until(() => Array.from({ length: 15 }, (_, i) => `done ${i + 1}`).every((line) => runs().includes(line)), 'every job to be done', 60_000)
    // None left active: a job whose completion the outage swallowed runs again (at least once), then completes.
    await until(async () => (await states()).every((state) => state === 'completed'), 'no job left active', 60_000)
    for (const worker of workers) expect(worker.child.exitCode).toBeNull()
    expect(workers.map((worker) => worker.output()).join('\n')).toMatch(/could not claim a job; trying again|queue \(pg-boss\)/)
    for (const worker of workers) worker.child.kill('SIGTERM')
    expect(await Promise.all(workers.map((worker) => worker.exited))).toEqual([0, 0])
  }, 120_000)

  it('answers 503 to a dispatch while PostgreSQL is down, with a line in the log, and 200 once it is back', async () => {
    app.write(
      'dist/public/index.js',
      [
        "import { Container, Router, loadEnv, start } from 'fw-runtime'",
        "import { Sleepy } from '../App/Jobs/Sleepy.js'",
        '',
        'loadEnv()',
        'const router = new Router(Container.getInstance())',
        "router.post('/nap', async () => {",
        '  await Sleepy.dispatch({ n: 1, ms: 0 })',
        '  return { queued: true }',
        '})',
        'await start(router)',
        '',
      ].join('\n'),
    )
    app.write('dist/App/Jobs/Sleepy.js', "import { Job } from 'fw-runtime/queue'\n\nexport class Sleepy extends Job {\n  handle() {}\n}\n")
    const server = spawn(process.execPath, ['dist/public/index.js'], { cwd: app.dir, env: cleanEnv({ PORT: '0' }), stdio: ['ignore', 'pipe', 'pipe'] })
    started.push(server)
    let output = ''
    server.stdout!.on('data', (chunk: Buffer) => (output += chunk))
    server.stderr!.on('data', (chunk: Buffer) => (output += chunk))
    await until(() => /listening on http:\/\/127\.0\.0\.1:\d+/.test(output), 'the server to listen')
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)![1]
    const nap = () => fetch(`${url}/nap`, { method: 'POST' }).then(async (response) => [response.status, await response.json()])
    expect(await nap()).toEqual([200, { queued: true }])
    postgres.pause()
    try {
      expect(await nap()).toEqual([503, { error: 'Service Unavailable' }])
      expect(output).toMatch(/\[fw\] database unavailable: /)
    } finally {
      postgres.resume()
    }
    let answer: unknown[] = []
    await until(async () => (answer = await nap())[0] === 200, 'a dispatch to be stored again')
    expect(answer).toEqual([200, { queued: true }])
    expect((await states()).length).toBe(2)
    expect(server.exitCode).toBeNull()
  }, 60_000)
})
