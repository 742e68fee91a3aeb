// Type-level tests of route model binding, compiled by `npm run typecheck` (never run): each `@ts-expect-error` marks a
// line that must not compile.
import { Container } from '../../src/container/Container.js'
import type { RowOf } from '../../src/database/modelTypes.js'
import type { Request } from '../../src/http/Request.js'
import { Router } from '../../src/routing/Router.js'
import { Post } from '../database/blog/Post.js'
import { User } from '../database/blog/User.js'

type PostRow = RowOf<typeof Post>

class PostController {
  show(_request: Request, post: PostRow) {
    return { title: post.title }
  }
}

export function routes() {
  const router = new Router(new Container())
  // A closure takes the row's type for a bound parameter; an unbound one is still a string, untyped or not.
  router.get('/posts/{post}', (_request: Request, post: PostRow) => ({ title: post.title.toUpperCase() })).bind('post', Post)
  router.get('/users/{user}/posts/{post}', (_request, user: RowOf<typeof User>, post: PostRow) => ({ user: user.name, post: post.id })).bind('user', User).bind('post', Post)
  router.get('/tags/{tag}', (_request, tag) => ({ tag: tag.toUpperCase() }))
  // @ts-expect-error an unbound parameter is a string, which has no such method
  router.get('/tags/{tag}/x', (_request, tag) => ({ tag: tag.title }))
  router.get('/controller/{post}', [PostController, 'show']).bind('post', Post)
  router.apiResource('photos', PostController, { only: ['show'], bind: Post })
  // @ts-expect-error a class that is not a model
  router.get('/nope/{post}', () => ({})).bind('post', PostController)
  // url() takes a row, text or a number
  const post = {} as PostRow
  router.url('posts.show', { post, page: 2 })
  // @ts-expect-error a boolean is no parameter value
  router.url('posts.show', { post: true })
}
