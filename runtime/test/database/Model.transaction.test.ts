import { describe, expect, it } from 'vitest'
import { transaction } from '../../src/database/db.js'
import { Comment } from './blog/Comment.js'
import { Post } from './blog/Post.js'
import { backends, useBlog } from './blog/schema.js'
import { User } from './blog/User.js'

describe.each(backends)('models inside transaction() on $name', (backend) => {
  const blog = useBlog(backend)
  it('read their own writes, eager loads included, and leave nothing when the work throws', async () => {
    const failed = transaction(async () => {
      const user = await User.forceCreate({ name: 'Ada', email: 'a@x', password_hash: 'h' })
      const post = await Post.create({ author_id: user.id, title: 'Hi' })
      await Comment.create({ post_id: post.id, author_id: user.id, body: 'c' })
      const loaded = await Post.query().with('author', 'comments.author').firstOrFail()
      expect(loaded.comments[0]!.author!.name).toBe('Ada')
      expect(await User.updateOrCreate({ email: 'a@x' }, { name: 'Ada L.' })).toMatchObject({ id: user.id })
      await Post.delete(post.id)
      expect(await Post.count()).toBe(0)
      throw new Error('no')
    })
    await expect(failed).rejects.toThrow('no')
    expect(await blog.db.selectFrom('users').selectAll().execute()).toEqual([])
    expect(await blog.db.selectFrom('posts').selectAll().execute()).toEqual([])
  })
})
