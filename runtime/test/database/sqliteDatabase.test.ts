import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Kysely } from 'kysely'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createDatabase } from '../../src/database/createDatabase.js'

let folder: string
let db: Kysely<any>

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'fw-sqlite-'))
  db = createDatabase(`sqlite:${join(folder, 'database.sqlite')}`)
  await db.schema.createTable('notes').addColumn('body', 'text').execute()
})
afterAll(async () => {
  await db.destroy()
  rmSync(folder, { recursive: true, force: true })
})
beforeEach(async () => {
  await db.deleteFrom('notes').execute()
})

const bodies = async () => (await db.selectFrom('notes').select('body').orderBy('body').execute()).map((row) => row.body)

describe('sqliteDatabase', () => {
  it('runs a query made through the instance inside its own raw transaction on that transaction, rather than waiting for ever', async () => {
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('notes').values({ body: 'through trx' }).execute()
        await db.insertInto('notes').values({ body: 'through db' }).execute()
        expect(await bodies()).toEqual(['through db', 'through trx'])
        throw new Error('changed my mind')
      }),
    ).rejects.toThrow('changed my mind')
    expect(await bodies()).toEqual([])
  }, 2_000)

  it('gives a callback that a finished transaction left behind no share in the next one: it waits its turn', async () => {
    let seen: unknown[] | undefined
    await db.transaction().execute(async () => {
      setTimeout(() => void bodies().then((rows) => (seen = rows)), 100)
    })
    // Another transaction holds the connection when the callback runs: it must neither see nor join it.
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('notes').values({ body: 'uncommitted' }).execute()
      await sleep(200)
      await trx.deleteFrom('notes').execute()
    })
    for (let i = 0; i < 50 && seen === undefined; i++) await sleep(10)
    expect(seen).toEqual([])
  }, 2_000)
})
