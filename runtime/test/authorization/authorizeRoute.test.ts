import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { abilities, can } from '../../src/authorization/authorize.js'
import { authorizeRoute } from '../../src/authorization/authorizeRoute.js'
import { Gate } from '../../src/authorization/Gate.js'
import { Container } from '../../src/container/Container.js'
import type { RowOf } from '../../src/database/modelTypes.js'
import type { Middleware } from '../../src/http/Middleware.js'
import { docsOf } from '../../src/http/middlewareDocs.js'
import type { Request } from '../../src/http/Request.js'
import { Response } from '../../src/http/Response.js'
import { Router } from '../../src/routing/Router.js'
import type { RunningServer } from '../../src/server/listen.js'
import { html } from '../../src/view/html.js'
import { Comment } from '../database/blog/Comment.js'
import { Post } from '../database/blog/Post.js'
import { backends, type Blog } from '../database/blog/schema.js'
import { User } from '../database/blog/User.js'
import { listenOn, servers } from '../support/servers.js'

type UserRow = RowOf<typeof User>
type PostRow = RowOf<typeof Post>

/** The blog's rules, two of them read from the database: a post with comments stays, and a user writes two posts at most. */
class PostPolicy {
  static guests = ['view']

  view(user: UserRow | null, post: PostRow) {
    return post.status === 'published' || user?.id === post.author_id
  }

  async create(user: UserRow) {
    return (await Post.query().where('author_id', '=', user.id).count()) < 2 || 'You may write two posts'
  }

  update(user: UserRow, post: PostRow) {
    return user.id === post.author_id || 'You do not own this post'
  }

  async delete(user: UserRow, post: PostRow) {
    if (user.id !== post.author_id) return false
    return !(await Comment.query().where('post_id', '=', post.id).exists()) || 'A post with comments stays'
  }
}

/** Signs in as the user whose id the X-User header names (the auth middleware's part, without a session). */
const signIn: Middleware = async (request, next) => {
  const id = request.header('x-user')
  if (id !== null) request.user = await User.find(id)
  return next()
}

/** Route model binding's part: the post of {post} on the request, 404 when there is none. */
const bindPost: Middleware = async (request, next) => {
  request.bindModel('post', await Post.findOrFail(request.param('post')!))
  return next()
}

describe.each(backends)('authorization over HTTP on $name', (backend) => {
  let blog: Blog
  beforeAll(async () => {
    blog = await backend.open()
    const ada = await User.forceCreate({ name: 'Ada', email: 'ada@example.com', password_hash: 'x' })
    const eve = await User.forceCreate({ name: 'Eve', email: 'eve@example.com', password_hash: 'x' })
    await User.forceCreate({ name: 'Root', email: 'root@example.com', password_hash: 'x' })
    await Post.create({ author_id: ada.id, title: 'Draft' }) // 1: a draft of Ada's
    await Post.create({ author_id: ada.id, title: 'Commented', status: 'published' }) // 2: published, with a comment
    await Comment.create({ post_id: 2, author_id: eve.id, body: 'Nice' })
    Gate.reset()
    Gate.policy(Post, PostPolicy)
    Gate.before((user: UserRow) => (user.email === 'root@example.com' ? true : undefined))
    Gate.define('viewReports', (user: UserRow) => user.email === 'eve@example.com')
    Gate.define('publish', (user: UserRow, post: PostRow) => (user.id === post.author_id && post.status === 'draft') || 'Only a draft of yours')
  }, 60_000)
  afterAll(async () => {
    Gate.reset()
    await blog?.close()
  })

  describe.each(servers)('$name', ({ start }) => {
    let server: RunningServer
    beforeAll(async () => {
      const router = new Router(new Container())
      router.get('/posts/{post}', (request: Request) => request.model<PostRow>('post')!).middleware(signIn, bindPost, 'can:view,post')
      router.put('/posts/{post}', () => ({ updated: true })).middleware(signIn, bindPost, 'can:update,post')
      router.post('/posts', () => ({ created: true })).middleware(signIn, 'can:create,Post')
      router.post('/posts/{post}/publish', () => ({ published: true })).middleware(signIn, bindPost, 'can:publish,post')
      router.delete('/posts/{post}', async (request: Request) => {
        await request.authorize('delete', request.model<PostRow>('post'))
        return { deleted: true }
      }).middleware(signIn, bindPost)
      router.get('/posts/{post}/page', async (request: Request) => {
        const post = request.model<PostRow>('post')!
        const allowed = await abilities(request, ['update', 'delete'], post)
        const canPublish = await can(request, 'publish', post)
        return Response.html(
          html`<h1>${post.title}</h1>${allowed.update ? html`<a>Edit</a>` : ''}${allowed.delete ? html`<a>Delete</a>` : ''}${canPublish ? html`<a>Publish</a>` : ''}`.toString(),
        )
      }).middleware(signIn, bindPost)
      router.get('/reports', () => ({ reports: [] })).middleware(signIn, authorizeRoute('viewReports'))
      server = await listenOn(start, router)
    })
    afterAll(() => server?.close())

    const send = async (method: string, path: string, user?: number, accept = 'application/json') => {
      const headers: Record<string, string> = { accept }
      if (user !== undefined) headers['x-user'] = String(user)
      const response = await fetch(`${server.url}${path}`, { method, headers })
      const text = await response.text()
      return { status: response.status, body: response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text }
    }

    it('lets the owner through can:update,post with the bound post, and answers others 403 with the policy’s reason', async () => {
      expect(await send('PUT', '/posts/1', 1)).toEqual({ status: 200, body: { updated: true } })
      expect(await send('PUT', '/posts/1', 2)).toEqual({ status: 403, body: { error: 'You do not own this post' } })
    })

    it('answers a guest 401 for an ability that does not take guests, and asks the ones that do', async () => {
      expect(await send('PUT', '/posts/1')).toEqual({ status: 401, body: { error: 'Unauthenticated' } })
      expect(await send('GET', '/posts/2')).toMatchObject({ status: 200, body: { id: 2, title: 'Commented' } })
      expect(await send('GET', '/posts/1')).toEqual({ status: 403, body: { error: 'This action is unauthorized.' } })
      expect(await send('GET', '/posts/1', 1)).toMatchObject({ status: 200, body: { id: 1, title: 'Draft' } })
    })

    it('renders the 403 as the error page for a browser, with the reason', async () => {
      const { status, body } = await send('PUT', '/posts/1', 2, 'text/html')
      expect(status).toBe(403)
      expect(body).toContain('<h1><span>403</span>Forbidden</h1>')
      expect(body).toContain('You do not own this post')
    })

    it('asks the model’s policy for a class-level ability (can:create,Post), which reads the database', async () => {
      expect(await send('POST', '/posts', 2)).toEqual({ status: 200, body: { created: true } })
      expect(await send('POST', '/posts', 1)).toEqual({ status: 403, body: { error: 'You may write two posts' } })
    })

    it('gives a gate the bound row as it is (can:publish,post), and a gate without subject (authorizeRoute)', async () => {
      expect(await send('POST', '/posts/1/publish', 1)).toEqual({ status: 200, body: { published: true } })
      expect(await send('POST', '/posts/2/publish', 1)).toEqual({ status: 403, body: { error: 'Only a draft of yours' } })
      expect(await send('GET', '/reports', 2)).toEqual({ status: 200, body: { reports: [] } })
      expect(await send('GET', '/reports', 1)).toEqual({ status: 403, body: { error: 'This action is unauthorized.' } })
    })

    it('lets request.authorize ask the policy of the bound row, whose rule reads the database', async () => {
      expect(await send('DELETE', '/posts/2', 2)).toEqual({ status: 403, body: { error: 'This action is unauthorized.' } })
      expect(await send('DELETE', '/posts/2', 1)).toEqual({ status: 403, body: { error: 'A post with comments stays' } })
      expect(await send('DELETE', '/posts/1', 1)).toEqual({ status: 200, body: { deleted: true } })
    })

    it('lets an admin do anything through the before hook', async () => {
      expect(await send('PUT', '/posts/1', 3)).toEqual({ status: 200, body: { updated: true } })
      expect(await send('DELETE', '/posts/2', 3)).toEqual({ status: 200, body: { deleted: true } })
      expect(await send('POST', '/posts', 3)).toEqual({ status: 200, body: { created: true } })
    })

    it('answers 404 before asking when binding finds no row', async () => {
      expect(await send('PUT', '/posts/99', 1)).toEqual({ status: 404, body: { error: 'Not Found' } })
    })

    it('lets a view ask several abilities before its synchronous template', async () => {
      expect((await send('GET', '/posts/1/page', 1, 'text/html')).body).toBe('<h1>Draft</h1><a>Edit</a><a>Delete</a><a>Publish</a>')
      expect((await send('GET', '/posts/1/page', 2, 'text/html')).body).toBe('<h1>Draft</h1>')
      expect((await send('GET', '/posts/2/page', 1, 'text/html')).body).toBe('<h1>Commented</h1><a>Edit</a>')
    })
  })
})

describe('the can middleware', () => {
  it('declares its 401 and 403 for the OpenAPI document', () => {
    const router = new Router(new Container())
    const route = router.put('/notes/{note}', () => ({})).middleware('can:update,note')
    router.commit()
    const docs = route.layers!.map(docsOf).find((found) => found !== undefined)
    expect(docs).toEqual({
      responses: {
        401: { description: 'No signed-in user, and the ability does not take guests' },
        403: { description: 'The user may not update this note' },
      },
    })
  })

  it('is made once per distinct reference', () => {
    const router = new Router(new Container())
    const a = router.get('/a/{post}', () => ({})).middleware('can:update,post')
    const b = router.get('/b/{post}', () => ({})).middleware('can:update,post')
    const c = router.get('/c/{post}', () => ({})).middleware('can:view,post')
    router.commit()
    expect(a.layers![0]).toBe(b.layers![0])
    expect(a.layers![0]).not.toBe(c.layers![0])
  })

  it('refuses to be made without an ability', () => {
    const router = new Router(new Container())
    router.get('/x', () => ({})).middleware('can:')
    expect(() => router.commit()).toThrow("The can middleware needs an ability: 'can:update,post'")
  })
})
