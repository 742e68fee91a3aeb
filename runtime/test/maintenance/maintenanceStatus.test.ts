import { afterEach, describe, expect, it, vi } from 'vitest'

import { createDatabase } from '../../src/database/createDatabase.js'
import { MAINTENANCE_CHECK_MS, maintenanceStatus } from '../../src/maintenance/maintenanceStatus.js'
import { bringUp, putDown } from '../../src/maintenance/maintenanceTable.js'
import { databases, useNotesDatabase } from '../support/notesDatabase.js'

// Starting PostgreSQL for the block can take more than the default 10 s on a busy machine.
vi.setConfig({ hookTimeout: 60_000 })
afterEach(() => vi.restoreAllMocks())

describe.each(databases)('maintenanceStatus on $name', ({ name }) => {
  const notes = useNotesDatabase(name)

  it('reads the state at most once a second: requests at the same moment share one read', async () => {
    // A database object of its own: the cache is per database.
    const database = notes.database().withoutPlugins()
    const now = Date.now()
    const asked = Array.from({ length: 20 }, () => maintenanceStatus(database, now))
    expect(new Set(asked).size).toBe(1)
    expect(asked[0]).toBeInstanceOf(Promise)
    expect(await asked[0]).toBeNull()

    // Within the second: the answer it read, without a read (fw down since then is not seen yet) and without a promise.
    await putDown(notes.database(), { since: now, retry: 30 })
    expect(maintenanceStatus(database, now + MAINTENANCE_CHECK_MS - 1)).toBeNull()
    expect(await maintenanceStatus(database, now + MAINTENANCE_CHECK_MS)).toEqual({ since: now, retry: 30 })
    await bringUp(notes.database())
  })
})

describe('maintenanceStatus when the database fails', () => {
  it('keeps the last answer and says so once: an outage never takes the app down', async () => {
    const folder = await import('node:fs').then(({ mkdtempSync }) => mkdtempSync('/tmp/fw-maintenance-'))
    const database = createDatabase(`sqlite:${folder}/database.sqlite`)
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const now = Date.now()
    await putDown(database, { since: now, retry: 60 })
    expect(await maintenanceStatus(database, now)).toMatchObject({ retry: 60 })
    await database.destroy()
    expect(await maintenanceStatus(database, now + MAINTENANCE_CHECK_MS)).toMatchObject({ retry: 60 })
    expect(await maintenanceStatus(database, now + 2 * MAINTENANCE_CHECK_MS)).toMatchObject({ retry: 60 })
    expect(errors).toHaveBeenCalledTimes(1)
    expect(String(errors.mock.calls[0]![0])).toMatch(/^\[fw\] could not read the maintenance state \(fw down\); serving as before: /)
  })
})
