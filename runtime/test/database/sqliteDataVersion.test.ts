import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql, type Kysely } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDatabase } from '../../src/database/createDatabase.js'
import { sqliteDataVersion } from '../../src/database/sqliteDataVersion.js'

let folder: string
/** This process's database, and another connection to its file, as another process has. */
let db: Kysely<any>
let other: Kysely<any>

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'fw-data-version-'))
  db = createDatabase(`sqlite:${join(folder, 'database.sqlite')}`)
  other = createDatabase(`sqlite:${join(folder, 'database.sqlite')}`)
})
afterAll(async () => {
  await db.destroy()
  await other.destroy()
  rmSync(folder, { recursive: true, force: true })
})

describe('sqliteDataVersion', () => {
  it('is unknown until the connection opens, stays put through its own commits, and changes with each commit of another connection', async () => {
    expect(sqliteDataVersion(db)).toBeUndefined()
    await sql`create table notes (body text)`.execute(db)
    const opened = sqliteDataVersion(db)
    expect(opened).toEqual(expect.any(Number))

    await sql`insert into notes values ('mine')`.execute(db)
    await db.transaction().execute((trx) => sql`insert into notes values ('mine too')`.execute(trx))
    expect(sqliteDataVersion(db)).toBe(opened)

    await sql`insert into notes values ('theirs')`.execute(other)
    const afterTheirs = sqliteDataVersion(db)
    expect(afterTheirs).not.toBe(opened)
    await sql`insert into notes values ('theirs again')`.execute(other)
    const afterTwo = sqliteDataVersion(db)
    expect(afterTwo).not.toBe(afterTheirs)
    // A read by the other connection commits nothing.
    await sql`select count(*) from notes`.execute(other)
    expect(sqliteDataVersion(db)).toBe(afterTwo)
  })
})
