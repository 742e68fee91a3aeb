import { setTimeout as sleep } from 'node:timers/promises'
import { sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { db, transaction } from '../../src/database/db.js'
import { Job } from '../../src/queue/Job.js'
import { queue } from '../../src/queue/queue.js'
import { schedule } from '../../src/schedule/schedule.js'
import { Scheduler } from '../../src/schedule/Scheduler.js'
import { claimRun, createScheduleRunsTable, KEEP_RUNS_MS, pruneRuns } from '../../src/schedule/scheduleRuns.js'
import { databases, useNotesDatabase } from '../support/notesDatabase.js'

/** A job that writes a note, so that a run is a row of the database it is scheduled on. */
class WriteNote extends Job<{ title: string }> {
  async handle({ title }: { title: string }): Promise<void> {
    await sql`insert into notes (title) values (${title})`.execute(db())
  }
}

/** A logger that keeps its lines, for assertions. */
function recordingLogger() {
  const lines: string[] = []
  return {
    lines,
    logger: {
      info: (message: string, fields: Record<string, unknown>) => lines.push(`${message} ${String(fields.at)}`),
      error: (message: string, ...details: unknown[]) => lines.push(`${message} ${String(details[0])}`),
    },
  }
}

const MINUTE = Date.parse('2026-05-04T10:20:00Z')

// The jobs here run at dispatch, inside the scheduler, unless a test keeps them in the database.
beforeEach(() => {
  process.env.QUEUE_DRIVER = 'sync'
})

afterEach(() => {
  schedule.clear()
  queue.restore()
  delete process.env.QUEUE_DRIVER
})

describe.each(databases)('the scheduler on $name', ({ name }) => {
  const notes = useNotesDatabase(name)
  const runs = async () => (await sql<{ task: string; run_at: string | number }>`select task, run_at from fw_schedule_runs order by task, run_at`.execute(notes.database())).rows
  const noteTitles = async () => (await sql<{ title: string }>`select title from notes order by title`.execute(notes.database())).rows.map((row) => row.title)

  afterEach(async () => {
    await sql`delete from notes`.execute(notes.database())
    await sql`delete from fw_schedule_runs`.execute(notes.database())
  })

  it('claims a slot once: a second claim of it does nothing, a rolled-back claim leaves nothing', async () => {
    const database = notes.database()
    await createScheduleRunsTable(database)
    await createScheduleRunsTable(database)
    expect(await claimRun(database, 'job:WriteNote', MINUTE)).toBe(true)
    expect(await claimRun(database, 'job:WriteNote', MINUTE)).toBe(false)
    expect(await claimRun(database, 'job:WriteNote', MINUTE + 60_000)).toBe(true)
    expect(await claimRun(database, 'other', MINUTE)).toBe(true)
    await expect(
      transaction(async (trx) => {
        expect(await claimRun(trx, 'rolled-back', MINUTE)).toBe(true)
        throw new Error('undone')
      }),
    ).rejects.toThrow('undone')
    expect((await runs()).map((row) => `${row.task} ${Number(row.run_at) - MINUTE}`)).toEqual(['job:WriteNote 0', 'job:WriteNote 60000', 'other 0'])
    // The slot given back by the rollback can be claimed.
    expect(await claimRun(database, 'rolled-back', MINUTE)).toBe(true)
  })

  it('deletes the claims older than a week', async () => {
    const database = notes.database()
    await createScheduleRunsTable(database)
    const now = Date.now()
    await claimRun(database, 'old', now - KEEP_RUNS_MS - 1)
    await claimRun(database, 'recent', now - KEEP_RUNS_MS + 60_000)
    expect(await pruneRuns(database, now)).toBe(1)
    expect((await runs()).map((row) => row.task)).toEqual(['recent'])
  })

  it('runs what is due once however many schedulers ask: the job (sync) and the call', async () => {
    const called: number[] = []
    schedule.job(WriteNote, { title: 'scheduled' }).everyFiveMinutes()
    schedule.call('count', () => called.push(1)).everyMinute()
    schedule.call('later', () => called.push(99)).hourlyAt(30)
    const { logger, lines } = recordingLogger()
    const schedulers = [1, 2, 3].map(() => new Scheduler(schedule.tasks(), { logger }))
    const now = MINUTE + 1_500
    const results = (await Promise.all(schedulers.map((scheduler) => scheduler.runDue(now)))).flat()
    expect(results.filter((result) => result.outcome !== 'taken').map((result) => `${result.task} ${result.outcome}`).sort()).toEqual(['count called', 'job:WriteNote dispatched'])
    expect(results.filter((result) => result.outcome === 'taken')).toHaveLength(4)
    expect(called).toEqual([1])
    expect(await noteTitles()).toEqual(['scheduled'])
    expect(lines.sort()).toEqual([`count ran ${new Date(MINUTE).toISOString()}`, `job:WriteNote ran ${new Date(MINUTE).toISOString()}`])
    // Later in the same minute, nothing is due that has not run.
    expect((await schedulers[0]!.runDue(now + 30_000)).map((result) => result.outcome)).toEqual(['taken', 'taken'])
    expect(called).toEqual([1])
  })

  it('gives the slot back when the job cannot be queued, and logs why', async () => {
    schedule.job(WriteNote, { title: new Date() as never }).everyMinute()
    const { logger, lines } = recordingLogger()
    const [result] = await new Scheduler(schedule.tasks(), { logger }).runDue(MINUTE)
    expect(result?.outcome).toBe('failed')
    expect(lines[0]).toMatch(/^\[fw\] scheduled task job:WriteNote \(2026-05-04T10:20:00.000Z\) failed: TypeError: WriteNote.dispatch\(\): its payload is stored as JSON/)
    expect(await runs()).toEqual([])
  })

  it('runs a command task through runCommand, claimed once; an exit code other than 0, or no runCommand, fails it', async () => {
    schedule.command('digest:send "all users" --queue').everyMinute()
    schedule.command('digest:send broken').everyMinute().name('digest-broken')
    const ran: (readonly string[])[] = []
    const { logger, lines } = recordingLogger()
    const runCommand = async (argv: readonly string[]) => {
      ran.push(argv)
      return argv[1] === 'broken' ? 2 : 0
    }
    const results = await new Scheduler(schedule.tasks(), { logger, runCommand }).runDue(MINUTE)
    expect(results.map((result) => [result.task, result.outcome])).toEqual([
      ['command:digest:send', 'called'],
      ['digest-broken', 'failed'],
    ])
    expect(ran).toEqual([
      ['digest:send', 'all users', '--queue'],
      ['digest:send', 'broken'],
    ])
    expect(lines).toContain('[fw] scheduled task digest-broken (2026-05-04T10:20:00.000Z) failed: Error: fw digest:send broken exited with code 2')
    // Claimed: a second scheduler runs nothing of that minute.
    expect(await new Scheduler(schedule.tasks(), { logger, runCommand }).runDue(MINUTE)).toEqual([
      { task: 'command:digest:send', runAt: MINUTE, outcome: 'taken' },
      { task: 'digest-broken', runAt: MINUTE, outcome: 'taken' },
    ])
    expect(ran).toHaveLength(2)

    const [alone] = await new Scheduler(schedule.tasks(), { logger }).runDue(MINUTE + 60_000)
    expect(alone?.outcome).toBe('failed')
    expect(lines.at(-2)).toMatch(/failed: Error: this scheduler was given no runCommand, so it cannot run fw commands$/)
  })

  it('skips a call without overlapping while its previous run in this process runs', async () => {
    let release!: () => void
    const started: number[] = []
    schedule
      .call('slow', async () => {
        started.push(Date.now())
        await new Promise<void>((resolve) => (release = resolve))
      })
      .everyMinute()
      .withoutOverlapping()
    const scheduler = new Scheduler(schedule.tasks(), recordingLogger())
    const first = scheduler.runDue(MINUTE)
    await sleep(200)
    expect(started).toHaveLength(1)
    expect(await scheduler.runDue(MINUTE + 60_000)).toEqual([{ task: 'slow', runAt: MINUTE + 60_000, outcome: 'skipped' }])
    release()
    expect((await first)[0]?.outcome).toBe('called')
    expect(started).toHaveLength(1)
  })

  it('makes the runs table again when it is dropped under a running scheduler (fw migrate:fresh), and goes on', async () => {
    const seconds: number[] = []
    schedule.call('tick', () => seconds.push(Date.now())).everySecond()
    const { logger, lines } = recordingLogger()
    const scheduler = new Scheduler(schedule.tasks(), { logger })
    const running = scheduler.run()
    await sleep(1_200)
    await sql`drop table fw_schedule_runs`.execute(notes.database())
    const dropped = seconds.length
    await sleep(2_200)
    await scheduler.stop()
    await running
    expect(seconds.length).toBeGreaterThanOrEqual(dropped + 2)
    expect(lines.filter((line) => line.includes('failed'))).toEqual([])
    expect((await runs()).filter((row) => row.task === 'tick').length).toBeGreaterThanOrEqual(2)
  })

  it('runs each second while it works, and stop() waits for the run in flight', async () => {
    const seconds: number[] = []
    schedule.call('tick', () => seconds.push(Date.now())).everySecond()
    const slow: string[] = []
    schedule
      .call('slow', async () => {
        slow.push('start')
        await sleep(700)
        slow.push('end')
      })
      .cron('*/2 * * * * *')
    const scheduler = new Scheduler(schedule.tasks(), recordingLogger())
    const running = scheduler.run()
    await sleep(3_200)
    await scheduler.stop()
    await running
    const claimed = (await runs()).filter((row) => row.task === 'tick').map((row) => Number(row.run_at))
    // One claim per second, none missing, each called just after its second.
    expect(claimed.length).toBeGreaterThanOrEqual(3)
    for (let index = 1; index < claimed.length; index++) expect(claimed[index]! - claimed[index - 1]!).toBe(1_000)
    expect(seconds).toHaveLength(claimed.length)
    // The first is the second before the start, which no one had claimed; each later one runs on time.
    expect(seconds[0]! - claimed[0]!).toBeLessThan(2_000)
    seconds.slice(1).forEach((time, index) => expect(time - claimed[index + 1]!).toBeLessThan(300))
    // The slow runs under way were finished, not dropped.
    expect(slow.length).toBeGreaterThanOrEqual(2)
    expect(slow.filter((step) => step === 'end')).toHaveLength(slow.filter((step) => step === 'start').length)
  })
})

describe('without overlapping, with QUEUE_DRIVER=database', () => {
  const notes = useNotesDatabase('SQLite')

  it('skips a job while the one it queued before waits, and queues the claim and the job in one transaction', async () => {
    process.env.QUEUE_DRIVER = 'database'
    schedule.job(WriteNote, { title: 'once' }).everyMinute().withoutOverlapping()
    const scheduler = new Scheduler(schedule.tasks(), recordingLogger())
    expect((await scheduler.runDue(MINUTE))[0]?.outcome).toBe('dispatched')
    expect((await scheduler.runDue(MINUTE + 60_000))[0]?.outcome).toBe('skipped')
    const jobs = await sql<{ name: string; unique_key: string }>`select name, unique_key from fw_jobs`.execute(notes.database())
    expect(jobs.rows).toEqual([{ name: 'WriteNote', unique_key: 'schedule:job:WriteNote' }])
    // Once it has run (here: is gone), the next slot queues it again.
    await sql`delete from fw_jobs`.execute(notes.database())
    expect((await scheduler.runDue(MINUTE + 120_000))[0]?.outcome).toBe('dispatched')
  })
})
