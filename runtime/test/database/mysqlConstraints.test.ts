import { sql, type Kysely } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConstraintViolationError, constraintViolation } from '../../src/database/ConstraintViolationError.js'
import { id } from '../../src/database/columns.js'
import { createDatabase } from '../../src/database/createDatabase.js'
import { foreignKeyColumns } from '../../src/database/mysqlConstraints.js'
import { startMariadb, type TestMariadb } from '../support/mariadb.js'

let mariadb: TestMariadb
let db: Kysely<any>
beforeAll(async () => {
  mariadb = await startMariadb()
  db = createDatabase<any>(mariadb.url)
  await db.schema.createTable('teams').$call(id(db)).execute()
  await db.schema
    .createTable('users')
    .$call(id(db))
    .addColumn('team_id', 'integer', (column) => column.notNull().references('teams.id'))
    .addColumn('email', 'varchar(255)', (column) => column.notNull())
    .addColumn('handle', 'varchar(64)', (column) => column.unique())
    .addUniqueConstraint('users_team_email', ['team_id', 'email'])
    .execute()
  await db.insertInto('teams').values({ id: 1 }).execute()
  await db.insertInto('users').values({ team_id: 1, email: 'a@x', handle: 'a' }).execute()
}, 60_000)
afterAll(async () => {
  await db?.destroy()
  await mariadb?.stop()
})

async function failure(write: Promise<unknown>): Promise<unknown> {
  try {
    await write
  } catch (error) {
    return error
  }
  throw new Error('the write succeeded')
}

describe('constraint violations on MariaDB', () => {
  it('names the columns of the unique index a duplicate hit, composite or single, in a statement kysely built or a raw one', async () => {
    const composite = await failure(db.insertInto('users').values({ team_id: 1, email: 'a@x' }).execute())
    expect(constraintViolation(composite)).toEqual({ kind: 'unique', columns: ['team_id', 'email'] })
    const single = await failure(sql`insert into users (team_id, email, handle) values (1, 'b@x', 'a')`.execute(db))
    expect(constraintViolation(single)).toEqual({ kind: 'unique', columns: ['handle'] })
    const key = await failure(db.insertInto('users').values({ id: 1, team_id: 1, email: 'c@x' }).execute())
    expect(constraintViolation(key)).toEqual({ kind: 'unique', columns: ['id'] })
    const answer = ConstraintViolationError.from(composite)!
    expect(answer.status).toBe(409)
    expect(answer.errors).toEqual({ email: ['The email has already been taken.'] })
  })

  it('reads a missing parent (422) and a row still referenced (409), and leaves the transaction usable', async () => {
    const missing = await failure(db.insertInto('users').values({ team_id: 9, email: 'd@x' }).execute())
    expect(constraintViolation(missing)).toEqual({ kind: 'foreignKey', columns: ['team_id'] })
    expect(ConstraintViolationError.from(missing)!.status).toBe(422)
    const referenced = await failure(db.deleteFrom('teams').where('id', '=', 1).execute())
    expect(constraintViolation(referenced)).toEqual({ kind: 'referenced', columns: [] })
    expect(ConstraintViolationError.from(referenced)!.status).toBe(409)
    const kept = await db.transaction().execute(async (trx) => {
      const duplicate = await failure(trx.insertInto('users').values({ team_id: 1, email: 'a@x' }).execute())
      expect(constraintViolation(duplicate)?.columns).toEqual(['team_id', 'email'])
      await trx.insertInto('users').values({ team_id: 1, email: 'e@x' }).execute()
      return trx.selectFrom('users').select('email').orderBy('id').execute()
    })
    expect(kept).toEqual([{ email: 'a@x' }, { email: 'e@x' }])
  })

  it('parses the columns of a foreign key from the message, in order', () => {
    expect(foreignKeyColumns('Cannot add or update a child row: a foreign key constraint fails (`fw`.`m`, CONSTRAINT `m_fk` FOREIGN KEY (`a`, `b``c`) REFERENCES `p` (`x`, `y`))')).toEqual(['a', 'b`c'])
    expect(foreignKeyColumns('something else')).toEqual([])
  })
})
