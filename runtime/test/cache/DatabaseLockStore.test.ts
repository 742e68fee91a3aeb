import { execFile, spawn } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { sql, type Kysely } from 'kysely'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { CacheRepository } from '../../src/cache/CacheRepository.js'
import { databases, useNotesDatabase } from '../support/notesDatabase.js'

// Starting PostgreSQL for a block can take more than the default 10 s on a busy machine.
vi.setConfig({ hookTimeout: 60_000 })

const runtime = fileURLToPath(new URL('../../', import.meta.url))

/** A script for a process of its own, on the database at `url`, with `cache` made for it. */
function script(url: string, body: string): string[] {
  const code = `
    const { createDatabase } = await import('./src/database/createDatabase.ts')
    const { CacheRepository } = await import('./src/cache/CacheRepository.ts')
    const database = createDatabase(${JSON.stringify(url)})
    const cache = new CacheRepository({ store: 'database', database: () => database })
    ${body}
  `
  return ['--import', 'tsx', '--input-type=module', '-e', code]
}

describe.each(databases)('DatabaseLockStore on $name', ({ name }) => {
  const notes = useNotesDatabase(name)
  const cache = () => new CacheRepository({ store: 'database', database: () => notes.database() })
  afterEach(async () => {
    await sql`delete from fw_cache_locks`.execute(notes.database())
  })

  it('grants a lock to exactly one of several processes asking at the same moment', async () => {
    const url = await urlOf(notes.database(), name)
    await cache().lock('warm-up', 1).get() // the table exists before the race
    const startAt = Date.now() + 6000
    const outcomes = await Promise.all(
      [1, 2, 3, 4].map(async () => {
        const { stdout } = await promisify(execFile)(
          process.execPath,
          script(
            url,
            `
            const locks = Array.from({ length: 5 }, () => cache.lock('nightly', 60))
            await new Promise((resolve) => setTimeout(resolve, Math.max(0, ${startAt} - Date.now())))
            const got = await Promise.all(locks.map((lock) => lock.get()))
            console.log(JSON.stringify(got))
            await database.destroy()`,
          ),
          { cwd: runtime },
        )
        return JSON.parse(stdout) as boolean[]
      }),
    )
    expect(outcomes.flat().filter(Boolean)).toHaveLength(1)
  }, 60_000)

  it('hands the lock of an owner killed with kill -9 to the next owner once its seconds are over', async () => {
    const url = await urlOf(notes.database(), name)
    const owner = spawn(process.execPath, script(url, `console.log(await cache.lock('import', 1.5).get()); setInterval(() => {}, 1000)`), { cwd: runtime, stdio: ['ignore', 'pipe', 'inherit'] })
    const [line] = (await once(owner.stdout!, 'data')) as [Buffer]
    expect(line.toString().trim()).toBe('true')
    owner.kill('SIGKILL')
    await once(owner, 'exit')
    const next = cache().lock('import', 60)
    expect(await next.get()).toBe(false)
    expect(await next.block(5, () => 'imported')).toBe('imported')
    expect(await next.isLocked()).toBe(false)
  }, 60_000)

  it('extends only its own lock, and not after it has expired', async () => {
    const lock = cache().lock('long', 0.3)
    expect(await lock.get()).toBe(true)
    await lock.extend(2)
    await new Promise((resolve) => setTimeout(resolve, 400))
    expect(await cache().lock('long', 1).get()).toBe(false)
    await expect(cache().restoreLock('long', 'someone else').extend(5)).rejects.toThrow('Looks like you are trying to update or release a lock that is not acquired by you')
    const { rows } = await sql<{ owner: string }>`select owner from fw_cache_locks where key = 'fw:lock:long'`.execute(notes.database())
    expect(rows).toEqual([{ owner: lock.owner() }])
  })
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
