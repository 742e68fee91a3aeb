import { describe, expect, it } from 'vitest'
import { expectDatabaseHas, expectDatabaseMissing } from '../../src/testing/databaseAssertions.js'
import { teamBackends, useTeamDatabase } from '../support/teamDatabase.js'

describe.each(teamBackends)('expectDatabaseHas() and expectDatabaseMissing() on $name', (backend) => {
  const database = useTeamDatabase(backend)

  it('passes when a row holds every value, and returns it', async () => {
    expect(await expectDatabaseHas('users', { email: 'ada@example.com', team_id: 1 })).toMatchObject({ id: 1, name: 'Ada' })
    await expectDatabaseHas('projects', { name: 'Apollo', owner_id: 1 })
    await expectDatabaseMissing('users', { email: 'ada@example.com', team_id: 2 })
    await expectDatabaseMissing('users', { email: 'grace@example.com' })
  })

  it('matches null as `is null`', async () => {
    await database.db.insertInto('users').values({ name: 'Grace', email: 'grace@example.com', team_id: null }).execute()
    await expectDatabaseHas('users', { name: 'Grace', team_id: null })
    await expectDatabaseMissing('users', { name: 'Ada', team_id: null })
  })

  it('fails listing the rows the table holds', async () => {
    await expect(expectDatabaseHas('users', { email: 'grace@example.com' })).rejects.toThrow(
      'Expected a row of "users" with {"email":"grace@example.com"}, found none. "users" holds:\n  {"id":1,"name":"Ada","email":"ada@example.com","team_id":1}',
    )
    await database.db.deleteFrom('projects').execute()
    await expect(expectDatabaseHas('projects', { name: 'Apollo' })).rejects.toThrow('Expected a row of "projects" with {"name":"Apollo"}, found none. "projects" is empty.')
  })

  it('fails listing the rows that match what should be missing', async () => {
    await expect(expectDatabaseMissing('teams', { name: 'Blue' })).rejects.toThrow('Expected no row of "teams" with {"name":"Blue"}, found:\n  {"id":2,"name":"Blue"}')
  })
})
