import { describe, expect, it } from 'vitest'
import { Model } from '../../src/database/Model.js'
import { Post } from './blog/Post.js'
import { backends, useBlog } from './blog/schema.js'
import { User } from './blog/User.js'

describe.each(backends)('ModelQuery on $name', (backend) => {
  const blog = useBlog(backend, async () => {
    const ada = await User.forceCreate({ name: 'Ada', email: 'ada@example.com', password_hash: 'h' })
    const posts: [string, string, number, string][] = [
      ['Alpha', 'published', 50, '2025-01-01 10:00:00.000'],
      ['Beta', 'draft', 500, '2025-01-03 10:00:00.000'],
      ['Gamma', 'published', 700, '2025-01-02 10:00:00.000'],
      ['Delta', 'published', 5, '2025-01-04 10:00:00.000'],
    ]
    for (const [title, status, views, time] of posts) {
      await Post.forceCreate({ author_id: ada.id, title, status, views, created_at: time, updated_at: time })
    }
  })

  const titles = (rows: { title: string }[]) => rows.map((row) => row.title)

  it('filters and orders as kysely does, and limits and offsets', async () => {
    expect(titles(await Post.query().where('views', '>', 10).orderBy('views', 'desc').execute())).toEqual(['Gamma', 'Beta', 'Alpha'])
    expect(titles(await Post.query().where('title', 'in', ['Beta', 'Delta']).orderBy('title').execute())).toEqual(['Beta', 'Delta'])
    expect(titles(await Post.query().where((eb) => eb.or([eb('views', '<', 10), eb('views', '>', 600)])).orderBy('id').execute())).toEqual(['Gamma', 'Delta'])
    expect(titles(await Post.query().latest().execute())).toEqual(['Delta', 'Beta', 'Gamma', 'Alpha'])
    expect(titles(await Post.query().oldest().limit(2).offset(1).execute())).toEqual(['Gamma', 'Beta'])
    expect(titles(await Post.query().latest('views').limit(1).execute())).toEqual(['Gamma'])
  })

  it('takes the first row, or fails with a 404', async () => {
    expect(await Post.query().orderBy('views').first()).toMatchObject({ title: 'Delta' })
    expect(await Post.query().orderBy('views').executeTakeFirst()).toMatchObject({ title: 'Delta' })
    expect(await Post.query().where('views', '>', 1000).first()).toBeUndefined()
    await expect(Post.query().where('views', '>', 1000).firstOrFail()).rejects.toMatchObject({ status: 404, message: 'Not Found' })
  })

  it('counts and checks existence of what matches, order, limit and offset aside', async () => {
    expect(await Post.query().where('status', '=', 'published').orderBy('views').limit(1).offset(1).count()).toBe(3)
    expect(await Post.query().where('status', '=', 'published').orderBy('views').exists()).toBe(true)
    expect(await Post.query().where('status', '=', 'archived').exists()).toBe(false)
  })

  it('paginates in the query order, then by key, with the seed meta', async () => {
    const page = await Post.query().where('status', '=', 'published').latest().paginate(2, 2)
    expect(page.meta).toEqual({ current_page: 2, per_page: 2, total: 3, last_page: 2 })
    expect(titles(page.data)).toEqual(['Alpha'])
    expect(titles((await Post.paginate(1, 3)).data)).toEqual(['Alpha', 'Beta', 'Gamma'])
  })

  it('applies the model\'s scopes, with their arguments, chained with the rest', async () => {
    expect(titles(await Post.query().published().orderBy('id').execute())).toEqual(['Alpha', 'Gamma', 'Delta'])
    expect(titles(await Post.query().published().viewedAtLeast(50).orderBy('id').execute())).toEqual(['Alpha', 'Gamma'])
    expect(titles(await Post.query().orderBy('id').viewedAtLeast(100).execute())).toEqual(['Beta', 'Gamma'])
    await blog.db.insertInto('comments').values({ post_id: 3, author_id: 1, body: 'Hi', created_at: '2025-01-01 00:00:00', updated_at: '2025-01-01 00:00:00' }).execute()
    expect(titles(await Post.query().commented().execute())).toEqual(['Gamma'])
    expect(await Post.query().published().count()).toBe(3)
  })

  it('is immutable: each method returns a new query and leaves the one it was called on as it was', async () => {
    const published = Post.query().published()
    const popular = published.viewedAtLeast(100)
    expect(await published.count()).toBe(3)
    expect(await popular.count()).toBe(1)
    expect(await published.where('views', '<', 10).count()).toBe(1)
    expect(await published.count()).toBe(3)
  })

  it('takes kysely changes through modify() and gives its kysely query with toKysely()', async () => {
    const joined = await Post.query()
      .modify((query) => query.innerJoin('users', 'users.id', 'posts.author_id').where('users.name', '=', 'Ada'))
      .orderBy('posts.id')
      .execute()
    expect(titles(joined)).toEqual(['Alpha', 'Beta', 'Gamma', 'Delta'])
    expect(Object.keys(joined[0]!)).not.toContain('email')
    const { sql } = Post.query().published().toKysely().compile()
    expect(sql).toMatch(/^select "posts"\.\* from "posts" where "status" = \$1 and "posts"\."deleted_at" is null$|^select "posts"\.\* from "posts" where "status" = \? and "posts"\."deleted_at" is null$/)
  })

  it('refuses a scope that does not return its query, and a scope named as a query method', async () => {
    class Broken extends Model('posts') {
      static mutating = this.scope(((query: any) => void query.where('views', '>', 1)) as never)
    }
    expect(() => (Broken.query() as any).mutating()).toThrow('The scope mutating must return the query it was given, changed (queries are immutable)')
    class Clashing extends Model('posts') {
      static override where = this.scope((query) => query) as never
    }
    expect(() => Clashing.query()).toThrow('The scope "where" of Clashing has the name of a query method: name it otherwise')
  })
})
