import { describe, expect, it } from 'vitest'
import { factory } from '../../src/database/factory.js'
import { Comment } from './blog/Comment.js'
import { Post } from './blog/Post.js'
import { backends, useBlog } from './blog/schema.js'
import { Tag } from './blog/Tag.js'
import { User } from './blog/User.js'

const UserFactory = factory(() => User, ({ faker, sequence }) => ({
  name: faker.person.fullName(),
  email: `user${sequence}@example.com`,
  password_hash: 'scrypt$not-a-real-hash',
}))

const PostFactory = factory(
  () => Post,
  ({ faker }) => ({ title: faker.lorem.sentence(), body: faker.lorem.paragraph(), status: 'draft' }),
  { states: { published: { status: 'published' }, popular: ({ faker }) => ({ views: faker.number.int({ min: 1000, max: 9999 }) }) } },
)

const CommentFactory = factory(() => Comment, ({ faker }) => ({ body: faker.lorem.sentence(), author_id: 1 }))
const TagFactory = factory(() => Tag, ({ faker }) => ({ name: faker.word.noun() }))

describe.each(backends)('model factories on $name', (backend) => {
  const blog = useBlog(backend)

  it('makes values without writing, and creates one row or count(n) rows with fake values', async () => {
    const values = await UserFactory.make()
    expect(values).toMatchObject({ name: expect.any(String), email: expect.stringMatching(/^user\d+@example\.com$/) })
    expect(await User.count()).toBe(0)

    const one = await UserFactory.create({ name: 'Ada' })
    expect(one).toMatchObject({ id: 1, name: 'Ada' })
    const many = await UserFactory.count(50).create()
    expect(many).toHaveLength(50)
    expect(new Set(many.map((user) => user.email)).size).toBe(50)
    expect(await User.count()).toBe(51)
    // The model's own rules hold: the hidden column is on the row, never in its JSON.
    expect(JSON.stringify(many[0])).not.toContain('password_hash')
  })

  it('applies named states, values and sequences, later ones winning', async () => {
    const author = await UserFactory.create()
    const posts = await PostFactory.count(4).for(author).state('published').state('popular').sequence({ title: 'odd' }, { title: 'even' }).create()
    expect(posts.map((post) => [post.status, post.title])).toEqual([
      ['published', 'odd'],
      ['published', 'even'],
      ['published', 'odd'],
      ['published', 'even'],
    ])
    expect(posts.every((post) => post.views >= 1000)).toBe(true)
    expect(() => PostFactory.state('archived' as never)).toThrow('factory has no state "archived"')
  })

  it('for(): rows belong to a row, or to the row of a factory created first, through belongsTo', async () => {
    const author = await UserFactory.create()
    const post = await PostFactory.for(author).create()
    expect(post.author_id).toBe(author.id)

    const other = await PostFactory.for(UserFactory.state({ name: 'Grace' })).create()
    const loaded = await Post.query().with('author').where('posts.id', '=', other.id).firstOrFail()
    expect(loaded.author?.name).toBe('Grace')

    // Comment belongs to a Post and to a User: a plain row needs the relation named.
    await expect(CommentFactory.for(post).create()).rejects.toThrow("for(): Comment has more than one belongsTo relation to it (its belongsTo relations: post, author); name one: .for(…, 'relation')")
    const comment = await CommentFactory.for(post, 'post').create()
    expect(comment.post_id).toBe(post.id)
  })

  it('has(): each row gets the rows of another factory through hasMany, and of belongsToMany through the pivot', async () => {
    await UserFactory.create()
    const posts = await PostFactory.count(3).for(UserFactory).has(CommentFactory.count(2)).has(TagFactory.count(2)).create()
    const loaded = await Post.query().with('comments', 'tags').orderBy('posts.id').execute()
    expect(loaded.map((post) => [post.id, post.comments.length, post.tags.length])).toEqual(posts.map((post) => [post.id, 2, 2]))
    expect(await Comment.count()).toBe(6)
    expect(await Tag.count()).toBe(6)
  })

  it('creates everything in one transaction: a failure leaves nothing', async () => {
    const failing = PostFactory.for(UserFactory).has(CommentFactory.state({ body: null as never }))
    await expect(failing.create()).rejects.toThrow()
    expect([await User.count(), await Post.count(), await Comment.count()]).toEqual([0, 0, 0])
  })

  it('takes an async definition and async states, as for a password hashed first', async () => {
    const hashed = factory(() => User, async ({ sequence }) => ({
      name: 'Hashed',
      email: `hashed${sequence}@example.com`,
      password_hash: await Promise.resolve(`scrypt$for-${sequence}`),
    }))
    const admins = hashed.state(async () => ({ name: await Promise.resolve('Admin') }))

    expect(await hashed.make()).toMatchObject({ name: 'Hashed', password_hash: expect.stringMatching(/^scrypt\$for-\d+$/) })
    const users = await admins.count(2).create()
    expect(users.map((user) => user.name)).toEqual(['Admin', 'Admin'])
    expect(await User.query().where('password_hash', 'like', 'scrypt$for-%').count()).toBe(2)
  })

  it('counts its queries: one insert a row', async () => {
    await UserFactory.count(5).create()
    expect(blog.queries.tables.filter((table) => table === 'InsertQueryNode')).toHaveLength(5)
  })
})
