import type { Kysely } from 'kysely'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { Container, type Cradle } from '../../src/container/Container.js'
import { db, transaction } from '../../src/database/db.js'
import { Job, queue } from '../../src/queue.js'
import { databases, useNotesDatabase } from '../support/notesDatabase.js'

/** What the jobs of this file did, in order. */
const done: string[] = []

class Greet extends Job<{ name: string }> {
  constructor(private readonly services: Cradle) {
    super()
  }

  async handle({ name }: { name: string }): Promise<void> {
    done.push(`${this.services.greeting as string}, ${name}`)
  }
}

class Tick extends Job {
  static override options = { queue: 'clock', attempts: 5 }

  handle(): void {
    done.push('tick')
  }
}

/** Reads the notes with db() when it runs: after the commit, it must see them. */
class CountNotes extends Job {
  async handle(): Promise<void> {
    const { count } = await (db() as Kysely<any>).selectFrom('notes').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow()
    done.push(`notes: ${Number(count)}`)
  }
}

class Fails extends Job<{ why: string }> {
  handle({ why }: { why: string }): void {
    throw new Error(why)
  }
}

// The jobs of this file run at dispatch, as in an app's tests (its vitest.config.ts sets QUEUE_DRIVER=sync).
beforeEach(() => {
  process.env.QUEUE_DRIVER = 'sync'
})

afterEach(() => {
  done.length = 0
  queue.restore()
  delete process.env.QUEUE_DRIVER
})

describe('with QUEUE_DRIVER unset', () => {
  afterEach(() => {
    delete process.env.DATABASE_URL
  })

  it.each([
    ['SQLite, the embedded default', undefined, 'database'],
    ['a SQLite file', 'sqlite:database/app.sqlite', 'database'],
    ['PostgreSQL', 'postgres://app:secret@127.0.0.1:5432/app', 'pgboss'],
  ])('keeps the jobs in the application\'s database for a worker: on %s, %s', (_, url, driver) => {
    delete process.env.QUEUE_DRIVER
    if (url) process.env.DATABASE_URL = url
    expect(queue.keepsJobs()).toBe(true)
    expect(queue.driverName()).toBe(driver)
    expect(queue.stored().name).toBe(driver)
  })
})

describe('the sync queue', () => {
  beforeAll(() => {
    Container.setInstance(new Container().instance('greeting', 'Hello'))
  })
  afterAll(() => Container.setInstance(undefined))

  it('runs a job at dispatch, built with the container\'s services, with its payload as JSON', async () => {
    expect(queue.driverName()).toBe('sync')
    await Greet.dispatch({ name: 'Ada' })
    await Tick.dispatch()
    expect(done).toEqual(['Hello, Ada', 'tick'])
  })

  it('lets what the job throws reach the dispatch', async () => {
    await expect(Fails.dispatch({ why: 'no mail server' })).rejects.toThrow('no mail server')
  })

  it('refuses a payload that is not plain JSON, and options out of range, naming the job', async () => {
    const refused = async (dispatch: () => Promise<void>) => (await dispatch().then(() => 'dispatched', (error: Error) => error.message))
    expect(await refused(() => Greet.dispatch({ name: new Date(0) as never }))).toBe(
      'Greet.dispatch(): its payload is stored as JSON, so it holds only plain objects, arrays, text, finite numbers, booleans and null: payload.name is a Date (send its id or its fields)',
    )
    expect(await refused(() => queue.dispatch(Greet, { name: 'x', tags: [1, Number.NaN] } as never))).toMatch(/: payload\.tags\[1\] is NaN$/)
    expect(await refused(() => queue.dispatch(Greet, { name: 'x', id: 1n } as never))).toMatch(/: payload\.id is a bigint$/)
    expect(await refused(() => queue.dispatch(Greet, { name: 'x', run: () => 1 } as never))).toMatch(/: payload\.run is a function$/)
    expect(await refused(() => Greet.dispatch({ name: 'x' }, { delay: -1 }))).toBe('Greet.dispatch(): delay must be a number of seconds, 0 or more, got -1')
    expect(await refused(() => Greet.dispatch({ name: 'x' }, { attempts: 0 }))).toBe('Greet.dispatch(): attempts must be a whole number, 1 or more, got 0')
    expect(await refused(() => Greet.dispatch({ name: 'x' }, { backoff: Number.POSITIVE_INFINITY }))).toBe('Greet.dispatch(): backoff must be a number of seconds, 0 or more, got Infinity')
    for (const name of ['mail queue', 'mail:high', '']) {
      expect(await refused(() => Greet.dispatch({ name: 'x' }, { queue: name }))).toBe(`Greet.dispatch(): queue must be 1 to 64 letters, digits and _ . -, got ${JSON.stringify(name)}`)
    }
    expect(await refused(() => Greet.dispatch({ name: 'x' }, { uniqueKey: '' }))).toBe('Greet.dispatch(): uniqueKey must be text of 1 to 255 characters, got ""')
    expect(done).toEqual([])
  })

  it('names the drivers it has when QUEUE_DRIVER names another', async () => {
    process.env.QUEUE_DRIVER = 'redis'
    await expect(Tick.dispatch()).rejects.toThrow('QUEUE_DRIVER=redis is not a queue driver of Fw; it has: sync, database, pgboss')
  })

  it('keeps no jobs: stored() says what to set, keepsJobs() answers false without throwing', () => {
    expect(queue.keepsJobs()).toBe(false)
    expect(() => queue.stored()).toThrow('QUEUE_DRIVER=sync keeps no jobs for a worker (sync runs each at dispatch): set QUEUE_DRIVER=database')
    queue.fake()
    expect(queue.keepsJobs()).toBe(false)
    queue.restore()
    process.env.QUEUE_DRIVER = 'database'
    expect(queue.keepsJobs()).toBe(true)
    expect(queue.stored().name).toBe('database')
  })
})

describe('queue.fake()', () => {
  it('records the jobs instead of running them, with their options, and asserts on them', async () => {
    const jobs = queue.fake()
    expect(queue.driverName()).toBe('fake')
    await Greet.dispatch({ name: 'Ada' }, { delay: 60 })
    await Greet.dispatch({ name: 'Grace' })
    await Tick.dispatch(undefined, { backoff: 1 })
    expect(done).toEqual([])

    jobs.assertPushed(Greet)
    jobs.assertPushed(Greet, (payload) => payload.name === 'Grace')
    jobs.assertPushedTimes(Greet, 2)
    jobs.assertNotPushed(Greet, (payload) => payload.name === 'Linus')
    jobs.assertNotPushed(Fails)
    const [ada] = jobs.pushed(Greet)
    expect(ada!.payload).toEqual({ name: 'Ada' })
    expect(ada!.options).toMatchObject({ queue: 'default', attempts: 3, backoff: 10, uniqueKey: undefined })
    expect(ada!.options.availableAt.getTime() - Date.now()).toBeGreaterThan(55_000)
    expect(jobs.pushed(Tick)[0]!.options).toMatchObject({ queue: 'clock', attempts: 5, backoff: 1 })

    expect(() => jobs.assertPushed(Greet, (payload) => payload.name === 'Linus')).toThrow(
      'Expected Greet to be pushed with a matching payload; pushed with: {"name":"Ada"}, {"name":"Grace"}',
    )
    expect(() => jobs.assertPushed(Fails)).toThrow('Expected Fails to be pushed')
    expect(() => jobs.assertPushedTimes(Tick, 2)).toThrow('Expected Tick to be pushed 2 time(s), it was pushed 1')
    expect(() => jobs.assertNotPushed(Greet)).toThrow('Expected Greet not to be pushed; pushed with: {"name":"Ada"}, {"name":"Grace"}')
    expect(() => jobs.assertNothingPushed()).toThrow('Expected no job to be pushed, got Greet, Greet, Tick')

    queue.restore()
    expect(queue.driverName()).toBe('sync')
  })

  it('keeps one waiting job per unique key', async () => {
    const jobs = queue.fake()
    await Greet.dispatch({ name: 'Ada' }, { uniqueKey: 'user:1' })
    await Greet.dispatch({ name: 'Ada again' }, { uniqueKey: 'user:1' })
    await Greet.dispatch({ name: 'Grace' }, { uniqueKey: 'user:2' })
    expect(jobs.pushed(Greet).map(({ payload }) => payload.name)).toEqual(['Ada', 'Grace'])
  })
})

describe.each(databases)('a dispatch inside transaction() on $name', ({ name }) => {
  useNotesDatabase(name)

  const write = (title: string) => (db() as Kysely<any>).insertInto('notes').values({ title }).execute()

  it('runs on the sync queue once the transaction has committed, and sees its writes', async () => {
    await transaction(async () => {
      await write('a')
      await CountNotes.dispatch()
      expect(done).toEqual([])
      await write('b')
    })
    expect(done).toEqual(['notes: 2'])
  })

  it('never runs, and is never recorded by the fake, when the transaction rolls back', async () => {
    const rolledBack = () =>
      transaction(async () => {
        await write('c')
        await CountNotes.dispatch()
        throw new Error('changed my mind')
      })
    await expect(rolledBack()).rejects.toThrow('changed my mind')
    expect(done).toEqual([])

    const jobs = queue.fake()
    await expect(rolledBack()).rejects.toThrow('changed my mind')
    jobs.assertNothingPushed()
    await transaction(async () => {
      await CountNotes.dispatch()
      jobs.assertNothingPushed()
    })
    jobs.assertPushedTimes(CountNotes, 1)
  })
})
