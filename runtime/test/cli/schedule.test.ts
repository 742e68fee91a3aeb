import type { ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { sql, type Kysely } from 'kysely'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createDatabase } from '../../src/database/createDatabase.js'
import { createFwApp, isRunning, startFw, until, type FwApp, type RunningFw } from '../support/fwApp.js'
import { startPostgres, type TestPostgres } from '../support/postgres.js'

/**
 * The app, as a user writes it: a job that records each run in the table `ticks` (so that, whichever driver runs
 * it, a run is a row), a call that appends its process to beats.log, and the schedule of both.
 */
const TICK = `import { db } from 'fw-runtime'
import { Job } from 'fw-runtime/queue'

export class Tick extends Job {
  async handle(): Promise<void> {
    await db().insertInto('ticks' as never).values({ at: Date.now() } as never).execute()
  }
}
`

const beat = "() => appendFileSync('beats.log', `${process.pid}\\n`)"

/** bootstrap/schedule.ts with these task lines after the imports. */
function scheduleFile(...tasks: string[]): string {
  return [
    "import { appendFileSync } from 'node:fs'",
    "import { schedule } from 'fw-runtime/schedule'",
    "import { Tick } from '../App/Jobs/Tick.js'",
    '',
    ...tasks,
    '',
  ].join('\n')
}

let app: FwApp
let database: Kysely<any> | undefined
const started: ChildProcess[] = []

beforeEach(() => {
  app = createFwApp()
  app.write('App/Jobs/Tick.ts', TICK)
  app.write('.env', 'QUEUE_DRIVER=database\n')
})
afterEach(async () => {
  for (const child of started) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL')
      await once(child, 'exit')
    }
  }
  started.length = 0
  await database?.destroy()
  database = undefined
  app.remove()
})

function openSqlite(): Kysely<any> {
  return (database = createDatabase(`sqlite:${join(app.dir, 'database/database.sqlite')}`))
}

/** An `fw` command running in the app, stopped after the test. */
function fwRunning(args: string[], env: NodeJS.ProcessEnv = {}): RunningFw {
  const running = startFw(app.dir, args, env)
  started.push(running.child)
  return running
}

/** The lines of beats.log: one per call, the process that made it. */
const beats = () => (existsSync(join(app.dir, 'beats.log')) ? readFileSync(join(app.dir, 'beats.log'), 'utf8').trim().split('\n') : [])

/** The claimed slots of a task, in order, in milliseconds. */
async function claimed(db: Kysely<any>, task: string): Promise<number[]> {
  const { rows } = await sql<{ run_at: string | number }>`select run_at from fw_schedule_runs where task = ${task} order by run_at`.execute(db)
  return rows.map((row) => Number(row.run_at))
}

/** Checks that `slots` are whole seconds one after another, without a gap or a twin. */
function expectEverySecond(slots: number[]): void {
  expect(slots.length).toBeGreaterThanOrEqual(4)
  for (const slot of slots) expect(slot % 1_000).toBe(0)
  for (let index = 1; index < slots.length; index++) expect(slots[index]! - slots[index - 1]!).toBe(1_000)
}

/**
 * Three `fw schedule:work` at once for about five seconds, then SIGTERM to each: every one exits 0. Resolves with
 * their pids.
 */
async function threeSchedulers(env: NodeJS.ProcessEnv = {}): Promise<number[]> {
  const schedulers = [1, 2, 3].map(() => fwRunning(['schedule:work'], env))
  await until(() => schedulers.every((scheduler) => scheduler.output().includes('Fw scheduler')), 'the three schedulers to start', 30_000)
  await sleep(5_000)
  for (const scheduler of schedulers) scheduler.child.kill('SIGTERM')
  for (const scheduler of schedulers) {
    expect(await scheduler.exited, scheduler.output()).toBe(0)
    expect(scheduler.output()).not.toMatch(/failed|Error/)
  }
  return schedulers.map((scheduler) => scheduler.child.pid!)
}

describe('fw schedule:list, schedule:run and schedule:work', () => {
  it('say that the app has no schedule file: list exits 0, work and run 1', async () => {
    expect(await app.fw(['schedule:list'])).toEqual({ code: 0, stdout: 'No schedule: write bootstrap/schedule.ts\n', stderr: '' })
    expect(await app.fw(['schedule:work'])).toEqual({ code: 1, stdout: '', stderr: 'No schedule: write bootstrap/schedule.ts\n' })
    expect(await app.fw(['schedule:run'])).toEqual({ code: 1, stdout: '', stderr: 'No schedule: write bootstrap/schedule.ts\n' })
  })

  it('schedule:list shows each task with its next run in UTC and in its zone', async () => {
    app.write(
      'bootstrap/schedule.ts',
      scheduleFile("schedule.job(Tick).dailyAt('09:30').timezone('Asia/Kolkata').withoutOverlapping()", `schedule.call('beat', ${beat}).hourly()`),
    )
    const listed = await app.fw(['schedule:list'])
    expect(listed.stderr).toBe('')
    expect(listed.code).toBe(0)
    const [header, rule, tick, beatRow] = listed.stdout.trimEnd().split('\n')
    expect(header).toMatch(/^Task\s+Cron\s+Timezone\s+Next run \(UTC\)\s+Next run \(its zone\)\s+Without overlapping$/)
    expect(rule).toMatch(/^-+( +-+){5}$/)
    // 09:30 in Kolkata (UTC+5:30) is 04:00 UTC.
    expect(tick).toMatch(/^job:Tick\s+30 9 \* \* \*\s+Asia\/Kolkata\s+\d{4}-\d\d-\d\d 04:00:00\s+\d{4}-\d\d-\d\d 09:30:00\s+yes$/)
    expect(beatRow).toMatch(/^beat\s+0 \* \* \* \*\s+UTC\s+\d{4}-\d\d-\d\d \d\d:00:00\s+\d{4}-\d\d-\d\d \d\d:00:00\s+no$/)
  })

  it('schedule:list refuses a bad cron expression and two tasks of one key, naming them', async () => {
    app.write('bootstrap/schedule.ts', scheduleFile("schedule.job(Tick).cron('*/5 * * *')"))
    const bad = await app.fw(['schedule:list'])
    expect(bad.code).toBe(1)
    expect(bad.stderr).toMatch(/^fw could not load the app's schedule: Scheduled task job:Tick: bad cron expression "\*\/5 \* \* \*": /)
    app.write('bootstrap/schedule.ts', scheduleFile('schedule.job(Tick).hourly()', 'schedule.job(Tick).daily()'))
    expect(await app.fw(['schedule:list'])).toMatchObject({
      code: 1,
      stderr: "fw could not load the app's schedule: Two scheduled tasks have the key job:Tick (one '0 * * * *', one '0 0 * * *'): give one of them its own .name('…')\n",
    })
  })

  it('schedule:run runs what is due once; a second run in the same minute runs nothing', async () => {
    app.write('bootstrap/schedule.ts', scheduleFile('schedule.job(Tick).everyMinute()', `schedule.call('beat', ${beat}).everyMinute()`, 'schedule.job(Tick).hourlyAt(59).name(\'never-now\')'))
    // Both runs in one minute, whatever the clock says when the test starts.
    if (new Date().getSeconds() > 50) await sleep((61 - new Date().getSeconds()) * 1_000)
    const first = await app.fw(['schedule:run'])
    expect(first.stderr).toBe('')
    expect(first.code).toBe(0)
    expect(first.stdout).toMatch(/job:Tick queued at=\d{4}-\d\d-\d\dT\d\d:\d\d:00\.000Z/)
    expect(first.stdout).toMatch(/beat ran at=/)
    expect(beats()).toHaveLength(1)
    const db = openSqlite()
    const jobs = async () => (await sql<{ name: string }>`select name from fw_jobs`.execute(db)).rows
    expect(await jobs()).toEqual([{ name: 'Tick' }])

    expect(await app.fw(['schedule:run'])).toEqual({ code: 0, stdout: 'No task due.\n', stderr: '' })
    expect(beats()).toHaveLength(1)
    expect(await jobs()).toHaveLength(1)
    expect((await sql<{ task: string }>`select task from fw_schedule_runs order by task`.execute(db)).rows).toEqual([{ task: 'beat' }, { task: 'job:Tick' }])
  })

  it("schedule.command runs an app command as `fw <line>` would, in a child process; an exit code other than 0 fails the run", async () => {
    app.write(
      'App/Console/Commands/Stamp.ts',
      [
        "import { appendFileSync } from 'node:fs'",
        "import { Command } from 'fw-runtime/console'",
        '',
        "export class Stamp extends Command({ name: 'stamp', description: 'Stamps', arguments: { label: {} }, options: { code: { type: 'number', default: 0 } } }) {",
        '  handle(): number {',
        "    appendFileSync('stamps.log', `${this.arguments.label} ${process.pid}\\n`)",
        '    return this.options.code',
        '  }',
        '}',
        '',
      ].join('\n'),
    )
    app.write('bootstrap/schedule.ts', scheduleFile(`schedule.command('stamp "two words"').everyMinute()`, `schedule.command('stamp failing --code=4').everyMinute().name('stamp-failing')`))
    if (new Date().getSeconds() > 45) await sleep((61 - new Date().getSeconds()) * 1_000)

    const listed = await app.fw(['schedule:list'])
    expect(listed.stdout).toMatch(/^command:stamp +\* \* \* \* \* +UTC /m)
    const ran = await app.fw(['schedule:run'])
    expect(ran.code).toBe(1)
    expect(ran.stdout).toMatch(/command:stamp ran at=/)
    expect(ran.stdout + ran.stderr).toMatch(/scheduled task stamp-failing \(.+\) failed:.*fw stamp failing --code=4 exited with code 4/s)
    const stamps = readFileSync(join(app.dir, 'stamps.log'), 'utf8').trim().split('\n').sort()
    expect(stamps.map((line) => line.split(' ').slice(0, -1).join(' '))).toEqual(['failing', 'two words'])
    // Each in a process of its own.
    expect(new Set(stamps.map((line) => line.split(' ').at(-1))).size).toBe(2)
  }, 90_000)

  it('loads the routes as the web process does: a task builds an absolute link with Route.absoluteUrl', async () => {
    app.write('routes/web.ts', "import { Route } from 'fw-runtime'\n\nRoute.get('/digest', () => 'the digest').name('digest')\n")
    app.write('.env', 'QUEUE_DRIVER=database\nAPP_URL=http://shop.example.test:8080\n')
    app.write('bootstrap/schedule.ts', scheduleFile("schedule.call('link', () => appendFileSync('beats.log', Route.absoluteUrl('digest'))).everyMinute()").replace("import { schedule }", "import { Route } from 'fw-runtime'\nimport { schedule }"))
    const ran = await app.fw(['schedule:run'])
    expect(ran.stderr).toBe('')
    expect(ran.code).toBe(0)
    expect(beats()).toEqual(['http://shop.example.test:8080/digest'])
  })

  it('withoutOverlapping skips the job while the one it queued before still waits', async () => {
    app.write('bootstrap/schedule.ts', scheduleFile('schedule.job(Tick).everySecond().withoutOverlapping()'))
    const first = await app.fw(['schedule:run'])
    expect(first.stdout).toMatch(/job:Tick queued/)
    await sleep(1_100)
    const second = await app.fw(['schedule:run'])
    expect(second.code).toBe(0)
    expect(second.stdout).toMatch(/job:Tick skipped: its previous run is not finished at=/)
    const db = openSqlite()
    expect((await sql`select unique_key from fw_jobs`.execute(db)).rows).toEqual([{ unique_key: 'schedule:job:Tick' }])
    expect(await claimed(db, 'job:Tick')).toHaveLength(2)
    // Once the job has run, the next slot queues it again.
    await sql`create table ticks (at bigint)`.execute(db)
    expect((await app.fw(['queue:work', '--once'])).code).toBe(0)
    await sleep(1_100)
    expect((await app.fw(['schedule:run'])).stdout).toMatch(/job:Tick queued/)
  })

  it('three schedule:work at once on SQLite: each second is claimed and its job stored exactly once', async () => {
    app.write('bootstrap/schedule.ts', scheduleFile('schedule.job(Tick).everySecond()', `schedule.call('beat', ${beat}).everySecond()`))
    const pids = await threeSchedulers()
    const db = openSqlite()
    const ticks = await claimed(db, 'job:Tick')
    expectEverySecond(ticks)
    const { rows: jobs } = await sql<{ count: number }>`select count(*) as count from fw_jobs where name = 'Tick'`.execute(db)
    expect(Number(jobs[0]!.count)).toBe(ticks.length)
    const beatSlots = await claimed(db, 'beat')
    expectEverySecond(beatSlots)
    expect(beats()).toHaveLength(beatSlots.length)
    // The work was shared: every beat came from one of the three.
    expect(beats().every((pid) => pids.includes(Number(pid)))).toBe(true)
  }, 60_000)
})

describe('three schedule:work at once on PostgreSQL', () => {
  let postgres: TestPostgres
  beforeAll(async () => {
    postgres = await startPostgres()
  })
  afterAll(() => postgres?.stop())

  it('run each second once: the job (QUEUE_DRIVER=sync, run by the scheduler that claimed it) and the call', async () => {
    const db = (database = createDatabase(postgres.url))
    await sql`create table ticks (at bigint)`.execute(db)
    app.write('.env', `QUEUE_DRIVER=sync\nDATABASE_URL=${postgres.url}\n`)
    app.write('bootstrap/schedule.ts', scheduleFile('schedule.job(Tick).everySecond()', `schedule.call('beat', ${beat}).everySecond()`))
    await threeSchedulers()
    const ticks = await claimed(db, 'job:Tick')
    expectEverySecond(ticks)
    const { rows } = await sql<{ count: string }>`select count(*) as count from ticks`.execute(db)
    expect(Number(rows[0]!.count)).toBe(ticks.length)
    const beatSlots = await claimed(db, 'beat')
    expectEverySecond(beatSlots)
    expect(beats()).toHaveLength(beatSlots.length)
  }, 60_000)

  it('store each second\'s job exactly once in pg-boss (QUEUE_DRIVER=database), in the transaction of its claim', async () => {
    const db = (database = createDatabase(postgres.url))
    app.write('.env', `QUEUE_DRIVER=database\nDATABASE_URL=${postgres.url}\n`)
    app.write('bootstrap/schedule.ts', scheduleFile('schedule.job(Tick).everySecond().name(\'tick-queued\')'))
    await threeSchedulers()
    const ticks = await claimed(db, 'tick-queued')
    expectEverySecond(ticks)
    const { rows } = await sql<{ count: number }>`select count(*)::int as count from pgboss.job where data->>'name' = 'Tick'`.execute(db)
    expect(rows[0]!.count).toBe(ticks.length)
  }, 60_000)
})

describe('fw start --scheduler', () => {
  it('runs one scheduler on the build beside the web workers, replaces it when it dies, and stops it with itself', async () => {
    app.write('dist/public/index.js', "import { Container, Router, loadEnv, start } from 'fw-runtime'\n\nloadEnv()\nawait start(new Router(Container.getInstance()))\n")
    app.write('dist/bootstrap/schedule.js', ["import { appendFileSync } from 'node:fs'", "import { schedule } from 'fw-runtime/schedule'", '', `schedule.call('beat', ${beat}).everySecond()`, ''].join('\n'))
    app.write('.env', '')
    const server = fwRunning(['start', '--scheduler'], { PORT: '0' })
    await until(() => /listening on http:\/\/127\.0\.0\.1:\d+/.test(server.output()), 'the server to listen')
    await until(() => beats().length >= 2, 'the scheduler to call the task')
    const scheduler = Number(beats()[0])
    expect(scheduler).not.toBe(server.child.pid)
    expect(new Set(beats()).size).toBe(1)

    process.kill(scheduler, 'SIGKILL')
    await until(() => /scheduler \d+ died \(signal SIGKILL\): starting a replacement/.test(server.output()), 'the death to be seen')
    await until(() => beats().some((pid) => Number(pid) !== scheduler), 'the replacement to call the task')
    const replacement = Number(beats().at(-1))

    server.child.kill('SIGTERM')
    expect(await server.exited).toBe(0)
    expect(isRunning(replacement)).toBe(false)
    expect(server.output().match(/Fw scheduler \d+/g)).toHaveLength(2)
  }, 60_000)
})

