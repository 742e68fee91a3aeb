import { describe, expect, it } from 'vitest'
import { HttpError } from '../../src/http/HttpError.js'
import type { RouteDefinition } from '../../src/routing/RouteDefinition.js'
import { RouteTree } from '../../src/routing/RouteTree.js'

/** A stand-in route: the tree stores it and hands it back, and asks for its `where` patterns. */
const route = (name: string, where: Record<string, string> = {}) =>
  ({ name, requirementOf: (parameter: string) => (where[parameter] ? { source: where[parameter], flags: '' } : undefined) }) as unknown as RouteDefinition

function lookup(tree: RouteTree, path: string, method = 'GET') {
  const match = tree.find(path, method)
  if (!match) return null
  const found = match.endpoint.routes.get(method) ?? match.endpoint.routes.get('GET')
  return { route: (found as unknown as { name: string } | undefined)?.name, values: match.values }
}

describe('RouteTree', () => {
  const tree = new RouteTree()
  tree.add('GET', '/users', route('users.index'))
  tree.add('GET', '/users/me', route('users.me'))
  tree.add('GET', '/users/{id}', route('users.show'))
  tree.add('GET', '/users/{id}/posts/{post}', route('posts.show'))
  tree.add('GET', '/users/{id}/posts/latest', route('posts.latest'))
  tree.add('GET', '/files/{name}', route('files.show'))

  it('finds static and parametric paths, the static one first', () => {
    expect(lookup(tree, '/users')).toEqual({ route: 'users.index', values: [] })
    expect(lookup(tree, '/users/me')).toEqual({ route: 'users.me', values: [] })
    expect(lookup(tree, '/users/42')).toEqual({ route: 'users.show', values: ['42'] })
    expect(lookup(tree, '/users/42/posts/latest')).toEqual({ route: 'posts.latest', values: ['42'] })
    expect(lookup(tree, '/users/42/posts/7')).toEqual({ route: 'posts.show', values: ['42', '7'] })
  })

  it('backtracks from a static segment to a parameter', () => {
    // "me" is a static child of /users, but /users/me/posts/1 only exists through {id}.
    expect(lookup(tree, '/users/me/posts/1')).toEqual({ route: 'posts.show', values: ['me', '1'] })
  })

  it('ignores one trailing slash and matches no empty segment to a parameter', () => {
    expect(lookup(tree, '/users/42/')).toEqual({ route: 'users.show', values: ['42'] })
    expect(lookup(tree, '/users//posts/1')).toBeNull()
    expect(lookup(tree, '/users/42/posts')).toBeNull()
    expect(lookup(tree, '/user')).toBeNull()
    expect(lookup(tree, '/usersx/1')).toBeNull()
  })

  it('decodes percent-encoding per segment: an encoded slash stays inside its parameter', () => {
    expect(lookup(tree, '/files/a%2Fb')).toEqual({ route: 'files.show', values: ['a/b'] })
    expect(lookup(tree, '/us%65rs/m%65')).toEqual({ route: 'users.me', values: [] })
    expect(lookup(tree, '/users/J%C3%BCrgen/posts/latest')).toEqual({ route: 'posts.latest', values: ['Jürgen'] })
    expect(() => tree.find('/files/%E0%A4%A', 'GET')).toThrow(HttpError)
  })

  it('finds static segments the same way with few children and with many', () => {
    const wide = new RouteTree()
    for (let i = 0; i < 50; i++) wide.add('GET', `/r${i}/{id}`, route(`r${i}`))
    const narrow = new RouteTree()
    for (let i = 0; i < 3; i++) narrow.add('GET', `/r${i}/{id}`, route(`r${i}`))
    for (const [tree, last] of [[wide, 49], [narrow, 2]] as const) {
      expect(lookup(tree, `/r${last}/x`)).toEqual({ route: `r${last}`, values: ['x'] })
      expect(lookup(tree, '/r0/7')).toEqual({ route: 'r0', values: ['7'] })
      expect(lookup(tree, `/r${last + 1}/x`)).toBeNull()
      // A segment is matched whole: neither a prefix of a route's segment nor one that starts with it.
      expect(lookup(tree, '/r/x')).toBeNull()
      expect(lookup(tree, '/r1x/5')).toBeNull()
    }
  })

  it('HEAD finds a GET route', () => {
    expect(lookup(tree, '/users/5', 'HEAD')).toEqual({ route: 'users.show', values: ['5'] })
  })
})

describe('RouteTree: segments of text and parameters', () => {
  const tree = new RouteTree()
  tree.add('GET', '/images/{id}.{ext}', route('images.show'))
  tree.add('GET', '/images/{id}', route('images.plain'))
  tree.add('GET', '/images/latest.jpg', route('images.latest'))
  tree.add('GET', '/images/{id}.tar.gz', route('images.tarball'))
  tree.add('GET', '/files/{name}-v{version}', route('files.version'))
  tree.add('GET', '/{lang}-{region}/about', route('about'))
  tree.add('GET', '/{page}/about', route('page.about'))
  tree.add('GET', '/docs/{id}.{ext}/raw', route('docs.raw'))
  tree.add('GET', '/docs/{slug}/edit', route('docs.edit'))

  it('splits a segment at the text between its parameters', () => {
    expect(lookup(tree, '/images/photo.jpg')).toEqual({ route: 'images.show', values: ['photo', 'jpg'] })
    expect(lookup(tree, '/images/a.b.c')).toEqual({ route: 'images.show', values: ['a', 'b.c'] })
    expect(lookup(tree, '/files/lib-v2')).toEqual({ route: 'files.version', values: ['lib', '2'] })
    // As in Laravel: a parameter followed by a separator in its segment never contains it.
    expect(lookup(tree, '/files/my-lib-v2')).toBeNull()
    expect(lookup(tree, '/en-GB/about')).toEqual({ route: 'about', values: ['en', 'GB'] })
  })

  it('tries a static segment first, then the segments of text (the most text first), then a whole parameter', () => {
    expect(lookup(tree, '/images/latest.jpg')).toEqual({ route: 'images.latest', values: [] })
    expect(lookup(tree, '/images/site.tar.gz')).toEqual({ route: 'images.tarball', values: ['site'] })
    expect(lookup(tree, '/images/site.zip')).toEqual({ route: 'images.show', values: ['site', 'zip'] })
    expect(lookup(tree, '/images/photo')).toEqual({ route: 'images.plain', values: ['photo'] })
    expect(lookup(tree, '/images/.jpg')).toEqual({ route: 'images.plain', values: ['.jpg'] })
    expect(lookup(tree, '/home/about')).toEqual({ route: 'page.about', values: ['home'] })
  })

  it('backtracks from a segment of text to a whole parameter when the rest of the path does not match', () => {
    expect(lookup(tree, '/docs/a.md/raw')).toEqual({ route: 'docs.raw', values: ['a', 'md'] })
    expect(lookup(tree, '/docs/a.md/edit')).toEqual({ route: 'docs.edit', values: ['a.md'] })
    expect(lookup(tree, '/en-GB/contact')).toBeNull()
  })

  it('splits the decoded segment: an encoded separator is the separator, other encoded text stays in the value', () => {
    expect(lookup(tree, '/images/J%C3%BCrgen.jpg')).toEqual({ route: 'images.show', values: ['Jürgen', 'jpg'] })
    expect(lookup(tree, '/images/photo%2Ejpg')).toEqual({ route: 'images.show', values: ['photo', 'jpg'] })
    expect(lookup(tree, '/images/a%2Fb.jpg')).toEqual({ route: 'images.show', values: ['a/b', 'jpg'] })
    expect(lookup(tree, '/files/caf%C3%A9-v1%20beta')).toEqual({ route: 'files.version', values: ['café', '1 beta'] })
  })

  it('shares a node between segments that differ only in their parameter names', () => {
    const shared = new RouteTree()
    shared.add('GET', '/a/{id}.{ext}', route('get'))
    shared.add('POST', '/a/{name}.{format}', route('post'))
    expect(shared.find('/a/x.y', 'POST')?.endpoint.allow).toBe('GET, HEAD, OPTIONS, POST')
  })
})

describe('RouteTree: optional parameters', () => {
  const tree = new RouteTree()
  tree.add('GET', '/users/{id?}', route('users'))
  tree.add('GET', '/posts/{year?}/{month?}', route('archive'))
  tree.add('GET', '/{page?}', route('page'))

  it('matches with and without them, the absent ones left out of the values', () => {
    expect(lookup(tree, '/users/5')).toEqual({ route: 'users', values: ['5'] })
    expect(lookup(tree, '/users')).toEqual({ route: 'users', values: [] })
    expect(lookup(tree, '/users/')).toEqual({ route: 'users', values: [] })
    expect(lookup(tree, '/posts/2024/05')).toEqual({ route: 'archive', values: ['2024', '05'] })
    expect(lookup(tree, '/posts/2024')).toEqual({ route: 'archive', values: ['2024'] })
    expect(lookup(tree, '/posts/2024/')).toEqual({ route: 'archive', values: ['2024'] })
    expect(lookup(tree, '/posts')).toEqual({ route: 'archive', values: [] })
    expect(lookup(tree, '/posts/2024/05/01')).toBeNull()
    expect(lookup(tree, '/')).toEqual({ route: 'page', values: [] })
    expect(lookup(tree, '/about')).toEqual({ route: 'page', values: ['about'] })
  })

  it('refuses a required parameter after an optional one, naming the route', () => {
    expect(() => new RouteTree().add('GET', '/posts/{year?}/{month}', route('x'))).toThrow(
      'Route "/posts/{year?}/{month}": the optional parameter {year?} is followed by "{month}"',
    )
  })
})
