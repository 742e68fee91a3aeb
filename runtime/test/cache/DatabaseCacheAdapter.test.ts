import { sql } from 'kysely'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { DatabaseCacheAdapter } from '../../src/cache/DatabaseCacheAdapter.js'
import { databases, useNotesDatabase } from '../support/notesDatabase.js'

// Starting PostgreSQL for a block can take more than the default 10 s on a busy machine.
vi.setConfig({ hookTimeout: 60_000 })

describe.each(databases)('DatabaseCacheAdapter on $name', ({ name }) => {
  const notes = useNotesDatabase(name)
  const adapter = () => new DatabaseCacheAdapter(() => notes.database())
  afterEach(async () => {
    await sql`drop table if exists fw_cache`.execute(notes.database())
  })

  it('makes its table on first use, and again after it was dropped; keeps expiry in ms', async () => {
    const cache = adapter()
    const expiresAt = new Date(Date.now() + 60_000)
    await cache.set({ key: 'k', value: '"v"', expiresAt })
    expect(await cache.get('k')).toEqual({ value: '"v"', expiresAt: expiresAt.getTime() })
    await sql`drop table fw_cache`.execute(notes.database())
    expect(await cache.get('k')).toBeUndefined()
    await cache.set({ key: 'k', value: '"again"', expiresAt: null })
    await cache.set({ key: 'k', value: '"replaced"', expiresAt: null })
    expect(await cache.get('k')).toEqual({ value: '"replaced"', expiresAt: null })
  })

  it('clears only the keys under its prefix, taking % and _ in it literally', async () => {
    const cache = adapter()
    for (const key of ['a_b:1', 'a_b:2', 'axb:1', 'a%:1', 'other:1']) await cache.set({ key, value: '1', expiresAt: null })
    await cache.clear('a_b:')
    await cache.clear('a%:')
    const { rows } = await sql<{ key: string }>`select key from fw_cache order by key`.execute(notes.database())
    expect(rows.map((row) => row.key)).toEqual(['axb:1', 'other:1'])
  })

  it('deletes one, many, and the expired ones', async () => {
    const cache = adapter()
    await cache.set({ key: 'old', value: '1', expiresAt: new Date(Date.now() - 1000) })
    await cache.set({ key: 'new', value: '1', expiresAt: new Date(Date.now() + 60_000) })
    await cache.set({ key: 'ever', value: '1', expiresAt: null })
    await cache.set({ key: 'x', value: '1', expiresAt: null })
    await cache.set({ key: 'y', value: '1', expiresAt: null })
    await cache.pruneExpiredEntries()
    expect(await cache.get('old')).toBeUndefined()
    expect(await cache.delete('new')).toBe(true)
    expect(await cache.delete('new')).toBe(false)
    expect(await cache.deleteMany(['x', 'y', 'z'])).toBe(2)
    const { rows } = await sql<{ key: string }>`select key from fw_cache`.execute(notes.database())
    expect(rows).toEqual([{ key: 'ever' }])
  })
})
