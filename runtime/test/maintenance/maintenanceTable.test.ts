import { sql } from 'kysely'
import { describe, expect, it, vi } from 'vitest'
import { bringUp, putDown, readMaintenance } from '../../src/maintenance/maintenanceTable.js'
import { databases, useNotesDatabase } from '../support/notesDatabase.js'

// Starting PostgreSQL for the block can take more than the default 10 s on a busy machine.
vi.setConfig({ hookTimeout: 60_000 })

describe.each(databases)('the maintenance table on $name', ({ name }) => {
  const notes = useNotesDatabase(name)

  it('is up while there is no table: reading makes none', async () => {
    expect(await readMaintenance(notes.database())).toBeNull()
    expect(await bringUp(notes.database())).toBe(false)
    const tables = await notes.database().introspection.getTables()
    expect(tables.map((table) => table.name)).not.toContain('fw_maintenance')
  })

  it('stores one state: down twice is false and keeps the first, up twice is false', async () => {
    const database = notes.database()
    expect(await bringUp(database)).toBe(false)
    expect(await putDown(database, { since: 1, retry: 60 })).toBe(true)
    expect(await putDown(database, { since: 2, retry: 5 })).toBe(false)
    expect(await readMaintenance(database)).toEqual({ since: 1, retry: 60 })
    expect(Number((await sql<{ n: number | string }>`select count(*) as n from fw_maintenance`.execute(database)).rows[0]!.n)).toBe(1)
    expect(await bringUp(database)).toBe(true)
    expect(await bringUp(database)).toBe(false)
  })
})
