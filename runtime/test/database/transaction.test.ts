import type { Kysely } from 'kysely'
import { describe, expect, it } from 'vitest'
import { afterCommit, db, transaction } from '../../src/database/db.js'
import { databases, useNotesDatabase } from '../support/notesDatabase.js'

describe.each(databases)('transaction() on $name', ({ name }) => {
  const notes = useNotesDatabase(name)

  /** A write through db(), as a model or fw-runtime/auth makes it: never handed the transaction. */
  const write = (title: string) => (db() as Kysely<any>).insertInto('notes').values({ title }).execute()
  const titles = async () => (await notes.database().selectFrom('notes').select('title').orderBy('title').execute()).map((row) => row.title)

  it('puts every db() inside it into the transaction, and commits them together', async () => {
    await transaction(async (trx) => {
      expect(db()).toBe(trx)
      await write('a')
      await transaction(async (inner) => {
        expect(inner).toBe(trx)
        await write('b')
      })
    })
    expect(db()).toBe(notes.database())
    expect(await titles()).toEqual(['a', 'b'])
  })

  it('rolls back every db() write inside it when the work throws', async () => {
    const failed = transaction(async () => {
      await write('c')
      await Promise.all([write('d'), write('e')])
      throw new Error('changed my mind')
    })
    await expect(failed).rejects.toThrow('changed my mind')
    expect(await titles()).toEqual(['a', 'b'])
  })

  it('runs afterCommit callbacks once the outermost transaction has committed, in order, seeing its writes', async () => {
    const seen: string[][] = []
    const order: string[] = []
    await transaction(async () => {
      await write('f')
      await afterCommit(async () => {
        order.push('first')
        seen.push(await titles())
      })
      await transaction(async () => {
        await afterCommit(() => order.push('nested'))
      })
      order.push('work done')
    })
    expect(order).toEqual(['work done', 'first', 'nested'])
    expect(seen).toEqual([['a', 'b', 'f']])
    // Outside a transaction, at once.
    await afterCommit(() => order.push('now'))
    expect(order.at(-1)).toBe('now')
  })

  it('drops afterCommit callbacks when the transaction rolls back', async () => {
    const ran: string[] = []
    const failed = transaction(async () => {
      await afterCommit(() => ran.push('after'))
      throw new Error('no')
    })
    await expect(failed).rejects.toThrow('no')
    expect(ran).toEqual([])
  })
})
