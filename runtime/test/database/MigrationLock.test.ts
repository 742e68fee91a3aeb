import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { createDatabase } from '../../src/database/createDatabase.js'
import { inspectMigrationLock, migrationLock } from '../../src/database/MigrationLock.js'
import { startPostgres, type TestPostgres } from '../support/postgres.js'

describe('the migration lock on PostgreSQL', () => {
  let postgres: TestPostgres
  beforeAll(async () => {
    postgres = await startPostgres()
  }, 60_000)
  afterAll(() => postgres?.stop())

  it('names the session that holds it, and with force ends that session so the lock is free', async () => {
    const owner = createDatabase(postgres.url)
    const operator = createDatabase(postgres.url)
    const errors = console.error
    console.error = () => {}
    try {
      expect(await inspectMigrationLock(operator, { clear: true })).toEqual({ holder: undefined, cleared: false })
      let release!: () => void
      const released = new Promise<void>((resolve) => (release = resolve))
      let pid = 0
      const held = owner.connection().execute(async (connection) => {
        pid = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(connection)).rows[0]!.pid
        await migrationLock(connection).acquire()
        release()
        // Stays in the session until the operator ends it.
        await sql`select pg_sleep(30)`.execute(connection)
      })
      // Its rejection comes when the operator ends the session: caught at once, checked below.
      const outcome = held.then(
        () => undefined,
        (error: unknown) => error,
      )
      await released

      const seen = await inspectMigrationLock(operator, { clear: true })
      expect(seen).toMatchObject({ holder: { owner: `PostgreSQL session ${pid}`, stale: false }, cleared: false })
      const forced = await inspectMigrationLock(operator, { clear: true, force: true })
      expect(forced.cleared).toBe(true)
      expect(await outcome).toMatchObject({ status: 503 })
      expect(await inspectMigrationLock(operator)).toEqual({ holder: undefined, cleared: false })
    } finally {
      console.error = errors
      await owner.destroy()
      await operator.destroy()
    }
  })
})
