import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { Category } from './blog/Category.js'
import { Comment } from './blog/Comment.js'
import { Post } from './blog/Post.js'
import { Profile } from './blog/Profile.js'
import { backends, useBlog } from './blog/schema.js'
import { Tag } from './blog/Tag.js'
import { User } from './blog/User.js'

const TIME = '2025-01-31 09:05:00.678'

/** 50 posts by 5 authors, each post with 3 comments by other users and 2 of 4 tags; fixed timestamps, so the JSON is known. */
async function seedBlog(): Promise<void> {
  for (let user = 1; user <= 5; user++) {
    await User.forceCreate({ name: `User ${user}`, email: `user${user}@example.com`, password_hash: `hash ${user}`, created_at: TIME, updated_at: TIME })
  }
  for (const name of ['news', 'tech', 'life', 'misc']) await Tag.create({ name })
  for (let post = 1; post <= 50; post++) {
    await Post.forceCreate({ author_id: ((post - 1) % 5) + 1, title: `Post ${post}`, views: post * 10, created_at: TIME, updated_at: TIME })
    for (let comment = 1; comment <= 3; comment++) {
      await Comment.create({ post_id: post, author_id: ((post + comment) % 5) + 1, body: `Comment ${comment} on ${post}`, stars: comment + (post % 3), created_at: TIME, updated_at: TIME })
    }
  }
  await Profile.create({ user_id: 1, bio: 'Writes' })
}

describe.each(backends)('relations on $name', (backend) => {
  const blog = useBlog(backend, async (opened) => {
    await seedBlog()
    for (let post = 1; post <= 50; post++) {
      await opened.db.insertInto('post_tag').values([{ post_id: post, tag_id: (post % 4) + 1 }, { post_id: post, tag_id: ((post + 1) % 4) + 1 }]).execute()
    }
  })

  it('eager loads 50 posts with their author, comments, the comments\' authors and tags in one query per relation', async () => {
    const posts = await Post.query().with('author', 'comments.author', 'tags').orderBy('id').execute()

    expect(blog.queries.tables).toEqual(['posts', 'users', 'comments', 'users', 'tags']) // tags joined with post_tag
    expect(posts).toHaveLength(50)
    const post = posts[6]!
    expect(post.author).toEqual({ id: 2, name: 'User 2', email: 'user2@example.com', created_at: post.author!.created_at, updated_at: post.author!.updated_at })
    expect(post.comments.map((comment) => [comment.id, comment.post_id, comment.author?.name])).toEqual([
      [19, 7, 'User 4'],
      [20, 7, 'User 5'],
      [21, 7, 'User 1'],
    ])
    expect(post.tags).toEqual([{ id: 1, name: 'news' }, { id: 4, name: 'misc' }])
    expect(JSON.stringify(post)).not.toContain('hash')
    expect(JSON.stringify(post)).not.toContain('fw_pivot_key')
  })

  it('loads the same with 1 post or 50: one query per relation, never one per row', async () => {
    await Post.query().where('id', '=', 1).with('author', 'comments').execute()
    const one = [...blog.queries.tables]
    blog.queries.clear()
    await Post.query().with('author', 'comments').execute()
    expect(blog.queries.tables).toEqual(one)
    expect(one).toEqual(['posts', 'users', 'comments'])
  })

  it('asks nothing more when no row has a key to load', async () => {
    expect(await Post.query().where('id', '>', 100).with('author', 'comments.author').execute()).toEqual([])
    expect(blog.queries.tables).toEqual(['posts'])
  })

  it('loads hasOne as a row or null, and hasMany in key order', async () => {
    const users = await User.query().with('profile', 'posts').orderBy('id').execute()
    expect(users.map((user) => user.profile?.bio ?? null)).toEqual(['Writes', null, null, null, null])
    expect(users[0]!.posts.map((post) => post.id)).toEqual([1, 6, 11, 16, 21, 26, 31, 36, 41, 46])
    const profile = await Profile.query().with('user').firstOrFail()
    expect(profile.user).toMatchObject({ id: 1, name: 'User 1' })
  })

  it('finds one row by key with its relations, and finds nothing for a key the column cannot hold, asking nothing', async () => {
    const post = await Post.query().with('author', 'comments').findOrFail('7')
    expect([post.id, post.author?.name, post.comments.map((comment) => comment.id)]).toEqual([7, 'User 2', [19, 20, 21]])
    expect(blog.queries.tables).toEqual(['posts', 'users', 'comments'])
    blog.queries.clear()
    expect(await Post.query().with('author').find(51)).toBeUndefined()
    expect(blog.queries.tables).toEqual(['posts'])
    blog.queries.clear()
    for (const key of ['abc', '1.5', '99999999999999999999']) {
      expect(await Post.query().with('author').find(key)).toBeUndefined()
      await expect(Post.query().with('author').findOrFail(key)).rejects.toMatchObject({ status: 404, message: 'Not Found' })
    }
    expect(blog.queries.tables).toEqual([])
    // The query's own constraints still apply.
    expect(await Post.query().where('author_id', '=', 1).find(7)).toBeUndefined()
  })

  it('constrains an eager load, and loads belongsToMany from either side', async () => {
    const post = await Post.query()
      .where('id', '=', 2)
      .with('comments', (comments) => comments.where('stars', '>=', 4).orderBy('stars', 'desc'))
      .firstOrFail()
    expect(post.comments.map((comment) => [comment.id, comment.stars])).toEqual([[6, 5], [5, 4]])

    const tag = await Tag.query().with('posts').where('name', '=', 'news').firstOrFail()
    expect(tag.posts.map((tagged) => tagged.id)).toEqual([3, 4, 7, 8, 11, 12, 15, 16, 19, 20, 23, 24, 27, 28, 31, 32, 35, 36, 39, 40, 43, 44, 47, 48])
  })

  it('filters with whereHas and whereDoesntHave, constraints included, on every kind of relation', async () => {
    await Comment.create({ post_id: 50, author_id: 1, body: 'Great', stars: 9 })
    const ids = async (query: { execute(): Promise<{ id: number }[]> }) => (await query.execute()).map((row) => row.id)

    expect(await ids(Post.query().whereHas('comments', (comments) => comments.where('stars', '>=', 9)))).toEqual([50])
    expect(await ids(Post.query().whereHas('author', (users) => users.where('name', '=', 'User 3')).where('id', '<=', 15).orderBy('id'))).toEqual([3, 8, 13])
    expect(await ids(Post.query().whereHas('tags', (tags) => tags.where('name', '=', 'life')).where('id', '<=', 6).orderBy('id'))).toEqual([1, 2, 5, 6])
    expect(await ids(User.query().whereHas('profile').orderBy('id'))).toEqual([1])
    expect(await ids(User.query().whereDoesntHave('profile').orderBy('id'))).toEqual([2, 3, 4, 5])
    await Post.forceCreate({ author_id: 1, title: 'Lonely' })
    expect(await ids(Post.query().whereDoesntHave('comments'))).toEqual([51])
    expect(await ids(Post.query().whereDoesntHave('tags'))).toEqual([51])
    expect(await ids(Tag.query().whereHas('posts', (posts) => posts.where('id', '=', 1)).orderBy('id'))).toEqual([2, 3])
    // One query each: the relation is an EXISTS subquery of it.
    expect(blog.queries.tables.filter((table) => table !== 'InsertQueryNode')).toEqual(['posts', 'posts', 'posts', 'users', 'users', 'posts', 'posts', 'tags'])
  })

  it('leaves soft-deleted related rows out of eager loads and whereHas, as out of queries', async () => {
    await Post.delete(1)
    await Post.delete(6)
    const user = await User.query().with('posts').where('id', '=', 1).firstOrFail()
    expect(user.posts.map((post) => post.id)).toEqual([11, 16, 21, 26, 31, 36, 41, 46])
    const comment = await Comment.query().with('post').where('post_id', '=', 1).firstOrFail()
    expect(comment.post).toBeNull()
    await blog.db.deleteFrom('posts').where('author_id', '=', 2).execute()
    expect((await User.query().whereHas('posts').orderBy('id').execute()).map((found) => found.id)).toEqual([1, 3, 4, 5])
    await Post.query().onlyTrashed().execute().then((posts) => Promise.all(posts.map((post) => Post.forceDelete(post.id))))
    await Post.query().where('author_id', '!=', 1).execute().then((posts) => Promise.all(posts.map((post) => Post.delete(post.id))))
    expect((await User.query().whereHas('posts').execute()).map((found) => found.id)).toEqual([1])
  })

  it('follows a relation of a table to itself, nested, and filters by it', async () => {
    const root = await Category.create({ name: 'Root', parent_id: null })
    const child = await Category.create({ name: 'Child', parent_id: root.id })
    await Category.create({ name: 'Grandchild', parent_id: child.id })
    await Category.create({ name: 'Other child', parent_id: root.id })

    const categories = await Category.query().with('parent.parent', 'children').orderBy('id').execute()
    expect(categories.map((category) => [category.name, category.parent?.name ?? null, category.parent?.parent?.name ?? null, category.children.map((c) => c.name)])).toEqual([
      ['Root', null, null, ['Child', 'Other child']],
      ['Child', 'Root', null, ['Grandchild']],
      ['Grandchild', 'Child', 'Root', []],
      ['Other child', 'Root', null, []],
    ])
    const parents = await Category.query().whereHas('children', (children) => children.where('name', 'like', '%child')).orderBy('id').execute()
    expect(parents.map((category) => category.name)).toEqual(['Root', 'Child'])
    const underRoot = await Category.query().whereHas('parent', (parent) => parent.where('name', '=', 'Root')).orderBy('id').execute()
    expect(underRoot.map((category) => category.name)).toEqual(['Child', 'Other child'])
    const leaves = await Category.query().whereDoesntHave('children').orderBy('id').execute()
    expect(leaves.map((category) => category.name)).toEqual(['Grandchild', 'Other child'])
  })

  it('names an unknown relation and refuses a callback that returns nothing', async () => {
    expect(() => Post.query().with('writer' as never)).toThrow('Post has no relation "writer": declare it as static writer = this.hasMany(() => Related)')
    expect(() => Post.query().whereHas('writer' as never)).toThrow('Post has no relation "writer"')
    await expect(Post.query().with('comments.writer' as never).execute()).rejects.toThrow('Comment has no relation "writer"')
    await expect(Post.query().with('comments', (() => undefined) as never).execute()).rejects.toThrow(
      'The callback of with() must return the query it was given, changed (queries are immutable): (query) => query.where(...)',
    )
  })
})

describe('relations on both databases', () => {
  it('give byte-identical JSON for the same rows', async () => {
    const answers: string[] = []
    for (const backend of backends) {
      const blog = await backend.open()
      try {
        await seedBlog()
        await blog.db.insertInto('post_tag').values({ post_id: 1, tag_id: 2 }).execute()
        const posts = await Post.query().with('author', 'comments.author', 'tags').orderBy('id').limit(3).execute()
        answers.push(JSON.stringify(posts))
      } finally {
        await blog.close()
      }
    }
    expect(answers[1]).toBe(answers[0])
    expect(JSON.parse(answers[0]!)[0]).toMatchObject({ id: 1, author: { id: 1 }, tags: [{ id: 2, name: 'tech' }] })
  }, 60_000)
})

it('loads two model files that import each other, in either order, under Node', async () => {
  const folder = fileURLToPath(new URL('./blog/', import.meta.url))
  const script = `
    const { User } = await import('./User.ts')
    const { Post } = await import('./Post.ts')
    console.log(JSON.stringify([User.posts.related() === Post, Post.author.related() === User, Post.comments.related().name]))
  `
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: folder })
  expect(JSON.parse(stdout)).toEqual([true, true, 'Comment'])
})
