import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Container } from '../../src/container/Container.js'
import type { Request } from '../../src/http/Request.js'
import { Router } from '../../src/routing/Router.js'
import type { RunningServer } from '../../src/server/listen.js'
import { listenOn, servers } from '../support/servers.js'
import { Post } from './blog/Post.js'
import { backends, type Blog } from './blog/schema.js'
import { User } from './blog/User.js'

class PostController {
  show(_request: Request, post: string) {
    return Post.query().with('author').where('posts.id', '=', Number(post)).firstOrFail()
  }
}

// GET /posts/abc was a 500 on PostgreSQL (22P02: invalid input syntax for type integer) and /posts/99999999999999999999
// another (22003: out of range for type integer): findOrFail answers 404 on both databases, whatever the key.
describe.each(backends)('findOrFail over HTTP on $name', (backend) => {
  let blog: Blog
  beforeAll(async () => {
    blog = await backend.open()
    const ada = await User.forceCreate({ name: 'Ada', email: 'ada@example.com', password_hash: 'secret hash' })
    await Post.create({ author_id: ada.id, title: 'Hello' })
    await Post.create({ author_id: ada.id, title: 'Trashed' })
    await Post.delete(2)
  }, 60_000)
  afterAll(() => blog?.close())

  describe.each(servers)('$name', ({ start }) => {
    let server: RunningServer
    beforeAll(async () => {
      const router = new Router(new Container())
      router.get('/posts/{post}', async (_request: Request, post: string) => Post.findOrFail(post))
      router.get('/users/{user}', async (_request: Request, user: string) => ({ user: await User.findOrFail(user) }))
      router.apiResource('api/posts', PostController, { only: ['show'], where: { post: /\d+/ } })
      server = await listenOn(start, router)
    })
    afterAll(() => server?.close())

    const get = async (path: string) => {
      const response = await fetch(`${server.url}${path}`)
      return { status: response.status, body: await response.json() }
    }

    it('answers the row, and 404 for a key that names none or that the column cannot hold', async () => {
      expect(await get('/posts/1')).toMatchObject({ status: 200, body: { id: 1, title: 'Hello', deleted_at: null } })
      for (const key of ['2', '3', 'abc', '99999999999999999999', '2147483648', '1.5', '-0', '%20']) {
        expect(await get(`/posts/${key}`), key).toEqual({ status: 404, body: { error: 'Not Found' } })
      }
    })

    it('never sends a hidden column', async () => {
      const { status, body } = await get('/users/1')
      expect(status).toBe(200)
      expect(body).toEqual({ user: { id: 1, name: 'Ada', email: 'ada@example.com', created_at: expect.anything(), updated_at: expect.anything() } })
    })

    it('answers 404 before the controller when a resource constrains its parameter', async () => {
      expect(await get('/api/posts/1')).toMatchObject({ status: 200, body: { title: 'Hello', author: { name: 'Ada' } } })
      expect(await get('/api/posts/abc')).toEqual({ status: 404, body: { error: 'Not Found' } })
    })
  })
})
