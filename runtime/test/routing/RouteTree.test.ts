import { describe, expect, it } from 'vitest'
import { HttpError } from '../../src/http/HttpError.js'
import type { RouteDefinition } from '../../src/routing/RouteDefinition.js'
import { RouteTree } from '../../src/routing/RouteTree.js'

/** A stand-in route: the tree only stores it and hands it back. */
const route = (name: string) => ({ name }) as unknown as RouteDefinition

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
