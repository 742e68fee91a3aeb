import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { promisify } from 'node:util'
import { fileURLToPath } from 'node:url'
import { sql, type Kysely } from 'kysely'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { DatabaseRateLimitStore } from '../../src/ratelimit/DatabaseRateLimitStore.js'
import { databases, useNotesDatabase } from '../support/notesDatabase.js'

// Starting PostgreSQL for a block can take more than the default 10 s on a busy machine.
vi.setConfig({ hookTimeout: 60_000 })

const runtime = fileURLToPath(new URL('../../', import.meta.url))

/**
 * A process of its own that counts `hits` hits on one key, all sent at once at `startAt` (a moment every process has
 * started by, so that they race), and prints the counts it got back.
 */
async function countInAnotherProcess(url: string, hits: number, startAt: number): Promise<number[]> {
  const script = `
    const { createDatabase } = await import('./src/database/createDatabase.ts')
    const { DatabaseRateLimitStore } = await import('./src/ratelimit/DatabaseRateLimitStore.ts')
    const database = createDatabase(${JSON.stringify(url)})
    const store = new DatabaseRateLimitStore(() => database)
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, ${startAt} - Date.now())))
    const now = Date.now()
    const counts = await Promise.all(Array.from({ length: ${hits} }, () => store.increment('shared', 60_000, now)))
    console.log(JSON.stringify(counts.map((count) => count.hits)))
    await database.destroy()
  `
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: runtime })
  return JSON.parse(stdout) as number[]
}

describe.each(databases)('DatabaseRateLimitStore on $name', ({ name }) => {
  const notes = useNotesDatabase(name)
  const store = () => new DatabaseRateLimitStore(() => notes.database())
  afterEach(async () => {
    await sql`delete from fw_rate_limits`.execute(notes.database())
  })

  it('makes its table on the first hit, counts a window, and starts again once it has ended', async () => {
    const counter = store()
    const now = 1_800_000_000_000
    expect(await counter.increment('k', 1000, now)).toEqual({ hits: 1, resetAt: now + 1000 })
    expect(await counter.increment('k', 1000, now + 500)).toEqual({ hits: 2, resetAt: now + 1000 })
    expect(await counter.increment('k', 1000, now + 1000)).toEqual({ hits: 1, resetAt: now + 2000 })
    expect(await counter.increment('other', 1000, now + 1000)).toEqual({ hits: 1, resetAt: now + 2000 })
    await counter.clear('k')
    expect(await counter.increment('k', 1000, now + 1500)).toEqual({ hits: 1, resetAt: now + 2500 })
    const { rows } = await sql<{ key: string }>`select key from fw_rate_limits`.execute(notes.database())
    // The keys are hashed: no address or user id is stored as it is.
    expect(rows.map((row) => row.key).sort()).toEqual(
      ['k', 'other'].map((key) => createHash('sha256').update(key).digest('hex')).sort(),
    )
  })

  it('deletes the counters whose window has ended, about once a minute', async () => {
    const counter = store()
    const now = 1_800_000_000_000
    await counter.increment('brief', 1000, now)
    await counter.increment('long', 3_600_000, now)
    await counter.increment('later', 1000, now + 61_000)
    await new Promise((resolve) => setTimeout(resolve, 200))
    const { rows } = await sql<{ hits: number }>`select hits from fw_rate_limits`.execute(notes.database())
    expect(rows).toHaveLength(2)
  })

  it('counts hits from several processes at the same moment exactly: no two get the same count', async () => {
    const url = await urlOf(notes.database(), name)
    await store().increment('warm-up', 1000, Date.now()) // the table exists before the race
    const startAt = Date.now() + 8000
    const results = await Promise.all([1, 2, 3].map(() => countInAnotherProcess(url, 100, startAt)))
    const all = results.flat().sort((a, b) => a - b)
    expect(all).toEqual(Array.from({ length: 300 }, (_, index) => index + 1))
  }, 60_000)
})

/** The URL another process opens the same database by: SQLite's file, or PostgreSQL's server and database. */
async function urlOf(database: Kysely<any>, name: string): Promise<string> {
  if (name === 'SQLite') {
    const { rows } = await sql<{ file: string }>`select file from pragma_database_list where name = 'main'`.execute(database)
    return `sqlite:${rows[0]!.file}`
  }
  const { rows } = await sql<{ port: number; name: string }>`select inet_server_port() as port, current_database() as name`.execute(database)
  return `postgres://postgres@127.0.0.1:${rows[0]!.port}/${rows[0]!.name}`
}
