import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Container } from '../../src/container/Container.js'
import { Model } from '../../src/database/Model.js'
import type { RowOf } from '../../src/database/modelTypes.js'
import { readsBoundModels } from '../../src/http/boundModels.js'
import type { Request } from '../../src/http/Request.js'
import { openApiDocument } from '../../src/openapi/openApiDocument.js'
import type { Middleware } from '../../src/routing/RouteDefinition.js'
import { Router } from '../../src/routing/Router.js'
import type { RunningServer } from '../../src/server/listen.js'
import { Comment } from '../database/blog/Comment.js'
import { Post } from '../database/blog/Post.js'
import { backends, useBlog } from '../database/blog/schema.js'
import { User } from '../database/blog/User.js'
import { listenOn, servers } from '../support/servers.js'

type PostRow = RowOf<typeof Post>
type UserRow = RowOf<typeof User>

/** A model whose key is a uuid (a PostgreSQL `uuid` column, text on SQLite). */
class Document extends Model('binding_documents', { keyType: 'uuid', timestamps: false }) {}

class PostController {
  index() {
    return { posts: [] }
  }

  show(request: Request, post: PostRow) {
    return { title: post.title, bound: request.model<PostRow>('post')?.id }
  }
}

/** What the models a middleware could read when it ran: before the binding, or after it. */
function sees(name: string, seen: Record<string, unknown>): Middleware {
  const middleware: Middleware = async (request, next) => {
    seen[name] = request.model<PostRow>('post')?.title ?? null
    return next()
  }
  return Object.defineProperty(middleware, 'name', { value: name })
}

function buildRouter(seen: Record<string, unknown>): Router {
  const router = new Router(new Container())
  router.get('/posts/{post}', (request: Request, post: PostRow) => ({ title: post.title, author: post.author_id })).bind('post', Post)
  router.get('/controller/posts/{post}', [PostController, 'show']).bind('post', Post).name('posts.show')
  router.get('/titled/{post:title}', (_request: Request, post: PostRow) => ({ id: post.id })).bind('post', Post).name('posts.titled')
  router.get('/viewed/{post:views}', (_request: Request, post: PostRow) => ({ id: post.id })).bind('post', Post)
  router.get('/trashed/{post}', (_request: Request, post: PostRow) => ({ id: post.id, deleted: post.deleted_at !== null })).bind('post', Post).withTrashed()
  router
    .get('/users/{user}/posts/{post}', (_request: Request, user: UserRow, post: PostRow) => ({ user: user.name, post: post.title }))
    .bind('user', User)
    .bind('post', Post)
    .scopeBindings()
    .name('users.posts.show')
  router
    .get('/users/{user}/titled/{post:title}', (_request: Request, user: UserRow, post: PostRow) => ({ user: user.name, post: post.id }))
    .bind('user', User)
    .bind('post', Post)
  router
    .get('/users/{user}/any/{post:title}', (_request: Request, user: UserRow, post: PostRow) => ({ user: user.name, post: post.id }))
    .bind('user', User)
    .bind('post', Post)
    .withoutScopedBindings()
  router.get('/posts/{post}/comments/{comment}', (_request: Request, _post: PostRow, comment: RowOf<typeof Comment>) => ({ body: comment.body }))
    .bind('post', Post)
    .bind('comment', Comment)
    .scopeBindings()
  router.get('/documents/{document}', (_request: Request, document: RowOf<typeof Document>) => ({ name: document.name })).bind('document', Document)
  router
    .get('/guarded/{post}', (_request: Request, post: PostRow) => ({ title: post.title }))
    .bind('post', Post)
    .middleware(sees('auth', seen), readsBoundModels(sees('canUpdate', seen)), sees('logAfter', seen))
  router.get('/last/{post}', (_request: Request, post: PostRow) => ({ title: post.title })).bind('post', Post).middleware(sees('auth', seen))
  router.get('/maybe/{post?}', (_request: Request, post?: PostRow) => ({ post: post?.id ?? null })).bind('post', Post)
  router.apiResource('resource/posts', PostController, { only: ['index', 'show'], bind: Post })
  router.get('/plain/{id}', async (_request: Request, id: string) => Post.findOrFail(id))
  return router
}

describe.each(backends)('route model binding on $name', (backend) => {
  const blog = useBlog(backend, async () => {
    const ada = await User.forceCreate({ name: 'Ada', email: 'ada@example.com', password_hash: 'x' })
    const bob = await User.forceCreate({ name: 'Bob', email: 'bob@example.com', password_hash: 'x' })
    await Post.create({ author_id: ada.id, title: 'hello' })
    await Post.create({ author_id: bob.id, title: 'bobs' })
    await Post.create({ author_id: ada.id, title: 'gone' })
    await Post.delete(3)
    await Comment.create({ post_id: 1, author_id: bob.id, body: 'first!' })
    await Comment.create({ post_id: 2, author_id: ada.id, body: 'on bobs' })
  })
  const documentId = randomUUID()
  beforeAll(async () => {
    await blog.db.schema
      .createTable('binding_documents')
      .addColumn('id', blog.postgres ? 'uuid' : 'text', (column) => column.primaryKey())
      .addColumn('name', 'text')
      .execute()
    await Document.forceCreate({ id: documentId, name: 'manual' })
  })

  describe.each(servers)('$name', ({ start }) => {
    const seen: Record<string, unknown> = {}
    let server: RunningServer
    beforeAll(async () => {
      server = await listenOn(start, buildRouter(seen))
    })
    afterAll(() => server?.close())

    const get = async (path: string) => {
      const response = await fetch(`${server.url}${path}`)
      return { status: response.status, body: await response.json() }
    }
    const notFound = { status: 404, body: { error: 'Not Found' } }

    it('hands the handler the row of the key, closure and controller alike, and the request has it', async () => {
      expect(await get('/posts/1')).toEqual({ status: 200, body: { title: 'hello', author: 1 } })
      expect(await get('/controller/posts/2')).toEqual({ status: 200, body: { title: 'bobs', bound: 2 } })
      expect(blog.queries.tables).toEqual(['posts', 'posts'])
    })

    it('binds the parameter of a resource\'s item routes', async () => {
      expect(await get('/resource/posts/2')).toEqual({ status: 200, body: { title: 'bobs', bound: 2 } })
      expect(await get('/resource/posts')).toEqual({ status: 200, body: { posts: [] } })
      expect(await get('/resource/posts/abc')).toEqual(notFound)
    })

    it('binds nothing for an optional parameter the path leaves out', async () => {
      expect(await get('/maybe')).toEqual({ status: 200, body: { post: null } })
      expect(await get('/maybe/2')).toEqual({ status: 200, body: { post: 2 } })
      expect(await get('/maybe/9')).toEqual(notFound)
    })

    it('answers 404 for a key with no row, with one query', async () => {
      expect(await get('/posts/99')).toEqual(notFound)
      expect(blog.queries.tables).toEqual(['posts'])
    })

    it('answers 404 without a query for a value the integer key cannot hold', async () => {
      for (const value of ['abc', '1.5', '-1', '+1', '1e3', '99999999999999999999', '2147483648', '%20', '0x1']) {
        expect(await get(`/posts/${value}`), value).toEqual(notFound)
      }
      expect(blog.queries.tables).toEqual([])
    })

    it('finds a uuid key in any case, and answers 404 without a query for a value that is no uuid', async () => {
      expect(await get(`/documents/${documentId.toUpperCase()}`)).toEqual({ status: 200, body: { name: 'manual' } })
      expect(await get(`/documents/${randomUUID()}`)).toEqual(notFound)
      blog.queries.clear()
      for (const value of ['abc', '1', `${documentId}0`, `{${documentId}}`]) expect(await get(`/documents/${value}`), value).toEqual(notFound)
      expect(blog.queries.tables).toEqual([])
    })

    it('finds by the column the pattern names', async () => {
      expect(await get('/titled/bobs')).toEqual({ status: 200, body: { id: 2 } })
      expect(await get('/titled/nope')).toEqual(notFound)
      expect(await get('/viewed/0')).toEqual({ status: 200, body: { id: 1 } })
      // An integer column given text: PostgreSQL refuses the comparison (22P02); that is no row, not a 500.
      expect(await get('/viewed/abc')).toEqual(notFound)
    })

    it('leaves soft-deleted rows out, unless the route asks for them', async () => {
      expect(await get('/posts/3')).toEqual(notFound)
      expect(await get('/titled/gone')).toEqual(notFound)
      expect(await get('/trashed/3')).toEqual({ status: 200, body: { id: 3, deleted: true } })
      expect(await get('/trashed/1')).toEqual({ status: 200, body: { id: 1, deleted: false } })
    })

    it('scopes a child to its parent through the parent relation', async () => {
      expect(await get('/users/1/posts/1')).toEqual({ status: 200, body: { user: 'Ada', post: 'hello' } })
      expect(await get('/users/2/posts/2')).toEqual({ status: 200, body: { user: 'Bob', post: 'bobs' } })
      blog.queries.clear()
      expect(await get('/users/1/posts/2')).toEqual(notFound)
      expect(blog.queries.tables).toEqual(['users', 'posts'])
      expect(await get('/users/9/posts/1')).toEqual(notFound)
      expect(await get('/posts/1/comments/1')).toEqual({ status: 200, body: { body: 'first!' } })
      expect(await get('/posts/1/comments/2')).toEqual(notFound)
    })

    it('scopes a child found by a column without asking, unless told not to', async () => {
      expect(await get('/users/1/titled/hello')).toEqual({ status: 200, body: { user: 'Ada', post: 1 } })
      expect(await get('/users/1/titled/bobs')).toEqual(notFound)
      expect(await get('/users/1/any/bobs')).toEqual({ status: 200, body: { user: 'Ada', post: 2 } })
    })

    it('loads the models before an authorization middleware, and after the others', async () => {
      expect(await get('/guarded/1')).toEqual({ status: 200, body: { title: 'hello' } })
      expect(seen).toEqual({ auth: null, canUpdate: 'hello', logAfter: 'hello' })
      expect(await get('/last/2')).toEqual({ status: 200, body: { title: 'bobs' } })
      expect(seen.auth).toBeNull()
      blog.queries.clear()
      expect(await get('/guarded/abc')).toEqual(notFound)
      expect(blog.queries.tables).toEqual([])
    })

    it('answers as findOrFail by hand does', async () => {
      for (const value of ['1', '2', '3', '99', 'abc']) {
        const bound = await get(`/posts/${value}`)
        const byHand = await get(`/plain/${value}`)
        expect(bound.status, value).toBe(byHand.status)
      }
    })
  })
})

describe('a route bound to a model', () => {
  const router = buildRouter({})
  router.commit()
  const post = { id: 7, title: 'Hello, world', author_id: 3 }

  it('takes a row for its parameter in url(): its key, or the column the pattern names', () => {
    expect(router.url('posts.show', { post })).toBe('/controller/posts/7')
    expect(router.url('posts.titled', { post })).toBe('/titled/Hello%2C%20world')
    expect(router.url('users.posts.show', { user: { id: 3 }, post, page: 2 })).toBe('/users/3/posts/7?page=2')
    expect(router.url('posts.show', { post: 7 })).toBe('/controller/posts/7')
  })

  it('refuses a row for a parameter bound to no model, or without the column', () => {
    const plain = new Router(new Container())
    plain.get('/items/{id}', () => ({})).name('items.show')
    expect(() => plain.url('items.show', { id: post })).toThrow(`Route "items.show": {id} takes text or a number; a row is for a parameter bound to a model (.bind('id', Model))`)
    expect(() => router.url('posts.titled', { post: { id: 7 } })).toThrow('Route "posts.titled": the row given for {post} has no title to put in the path')
  })

  it('matches, lists and documents the path without the column, with the 404 among its responses', () => {
    const titled = router.getRoutes().find((route) => route.routeName === 'posts.titled')!
    expect(titled.pattern).toBe('/titled/{post}')
    expect(titled.bindingFields).toEqual({ post: 'title' })
    const document = openApiDocument(router.getRoutes(), { title: 'Blog', version: '1' })
    expect(Object.keys(document.paths)).toContain('/titled/{post}')
    expect(Object.keys(document.paths)).toContain('/users/{user}/posts/{post}')
    const operation = document.paths['/users/{user}/posts/{post}']!.get as { responses: Record<string, any> }
    expect(operation.responses['404']).toEqual({
      description: 'No User or Post at this path',
      content: { 'application/json': { schema: { type: 'object', properties: { error: { type: 'string' } }, required: ['error'] } } },
    })
  })

  it('keeps the document\'s 200 of a route that declares no success, until the route declares one', () => {
    const routes = new Router(new Container())
    routes.get('/a/{post}', () => ({})).bind('post', Post)
    routes.delete('/b/{post}', () => ({})).bind('post', Post).returns(204)
    routes.get('/c/{post}', () => ({})).returns(404, undefined, 'Gone').bind('post', Post)
    const document = openApiDocument(routes.getRoutes(), { title: 'Blog', version: '1' })
    const responses = (path: string, method: string) => (document.paths[path]![method] as { responses: Record<string, { description: string }> }).responses
    // 400 and 413 are on every operation: any request's body is read before routing.
    expect(Object.keys(responses('/a/{post}', 'get'))).toEqual(['200', '400', '404', '413'])
    expect(responses('/a/{post}', 'get')['200']).toEqual({ description: 'OK' })
    expect(Object.keys(responses('/b/{post}', 'delete'))).toEqual(['204', '400', '404', '413'])
    expect(responses('/c/{post}', 'get')['404']).toMatchObject({ description: 'Gone' })
  })

  it('says at startup what a binding lacks', () => {
    const unbound = new Router(new Container())
    unbound.get('/posts/{post:slug}', () => ({}))
    expect(() => unbound.commit()).toThrow(`Route "/posts/{post}": {post:slug} finds a model by its slug, but no model is bound to {post}: add .bind('post', Model)`)

    const unrelated = new Router(new Container())
    unrelated.get('/posts/{post}/users/{user}', () => ({})).bind('post', Post).bind('user', User).scopeBindings()
    expect(() => unrelated.commit()).toThrow(
      'Route "/posts/{post}/users/{user}": {user} is scoped to {post}, so Post needs a relation "users" to User (static users = this.hasMany(() => User)); or find it by itself with .withoutScopedBindings()',
    )

    const routes = new Router(new Container())
    const route = routes.get('/posts/{post}', () => ({}))
    expect(() => route.bind('id', Post)).toThrow('Route "/posts/{post}" has no parameter {id} to bind')
    expect(() => route.bind('post', class NotAModel {} as never)).toThrow('NotAModel is not a model')
  })
})
