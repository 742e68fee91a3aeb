import { describe, expect, it } from 'vitest'
import { createDatabase } from '../../src/database/createDatabase.js'

// Compiling needs no server: the pool opens on the first query, which never comes.
const db = createDatabase<any>('mysql://app@127.0.0.1:1/app')

describe('FwMysqlQueryCompiler', () => {
  it('gives time columns milliseconds as datetime, text its full size and a bare varchar a length', () => {
    const { sql } = db.schema
      .createTable('events')
      .addColumn('at', 'timestamp')
      .addColumn('seen', 'datetime')
      .addColumn('exact', 'timestamp(6)')
      .addColumn('noted', 'datetime(0)')
      .addColumn('body', 'text')
      .addColumn('code', 'varchar')
      .addColumn('title', 'varchar(40)')
      .addColumn('done', 'boolean')
      .compile()
    expect(sql).toBe(
      'create table `events` (`at` datetime(3), `seen` datetime(3), `exact` datetime(6), `noted` datetime(0), `body` longtext, `code` varchar(255), `title` varchar(40), `done` boolean)',
    )
  })

  it('maps a column added later the same way, and leaves queries alone', () => {
    expect(db.schema.alterTable('users').addColumn('email_verified_at', 'timestamp').compile().sql).toBe('alter table `users` add column `email_verified_at` datetime(3)')
    expect(db.selectFrom('posts').select('text').where('id', '=', 1).compile().sql).toBe('select `text` from `posts` where `id` = ?')
  })
})
