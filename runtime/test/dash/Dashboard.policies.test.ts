import type { Kysely } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GateRegistry } from '../../src/authorization/Gate.js'
import { Dashboard } from '../../src/dash/Dashboard.js'
import { backends, createSchema } from './schema.js'

class Post {
  static readonly table = 'posts'
}

/** Reads the database: a user may open only the posts with more views than the user's id; only user 1 creates. */
class PostPolicy {
  viewAny() {
    return true
  }
  async view(user: { id: number }, post: { id: number }) {
    const row = await database.selectFrom('posts').select('views').where('id', '=', post.id).executeTakeFirstOrThrow()
    return Number(row.views) > user.id || 'Too few views'
  }
  create(user: { id: number }) {
    return user.id === 1
  }
}

let database: Kysely<any>

describe.each(backends)('Dashboard and the policies of its tables on $name', (backend) => {
  let close: () => Promise<void>
  let dashboard: Dashboard
  beforeAll(async () => {
    ;({ db: database, close } = await backend.open())
    await createSchema(database)
    await database.insertInto('posts').values([{ title: 'Read', views: 10 }, { title: 'Unread', views: 0 }]).execute()
    dashboard = new Dashboard({ db: () => database, gate: new GateRegistry().policy(Post, PostPolicy) })
  }, 60_000)
  afterAll(() => close?.())

  it('asks the policy of the table’s model, with the row as the dashboard read it', async () => {
    const posts = (await dashboard.table('posts'))!
    const { rows } = await dashboard.list(posts, { sort: 'id' })
    expect(await dashboard.allows({ id: 1 }, 'viewAny', posts)).toBe(true)
    expect(await dashboard.allows({ id: 1 }, 'view', posts, rows[0])).toBe(true)
    expect(await dashboard.inspect({ id: 1 }, 'view', posts, rows[1])).toEqual({ allowed: false, message: 'Too few views', status: 403 })
    expect(await dashboard.allows({ id: 2 }, 'create', posts)).toBe(false)
    // The policy has no update: denied, as Laravel's policies deny what they do not define.
    expect(await dashboard.allows({ id: 1 }, 'update', posts, rows[0])).toBe(false)
  })

  it('allows every action on a table whose model has no policy', async () => {
    const users = (await dashboard.table('users'))!
    expect(await dashboard.inspect({ id: 2 }, 'delete', users, { id: 1 })).toEqual({ allowed: true, message: undefined, status: 200 })
  })
})
