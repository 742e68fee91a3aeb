import { describe, expect, it } from 'vitest'
import { PathScope, type Coverage } from '../../src/routing/PathScope.js'

describe('PathScope: the path pattern of router.use(path, middleware)', () => {
  it.each<[string, string, boolean]>([
    ['/api/*', '/api', true],
    ['/api/*', '/api/', true],
    ['/api/*', '/api/users/1', true],
    ['/api/*', '//api//users', true],
    ['/api/*', '/%61pi/users', true],
    ['/api/*', '/api/%E0%A4%A', true],
    ['/api/*', '/apiary', false],
    ['/api/*', '/', false],
    ['/api/*', '/v1/api', false],
    ['/api/*', '/api%2Fusers', false],
    ['/health', '/health', true],
    ['/health', '/health/', true],
    ['/health', '/health/deep', false],
    ['/health', '/healthz', false],
    ['/*', '/', true],
    ['/*', '/anything/at/all', true],
    ['/', '/', true],
    ['/', '/a', false],
    ['/caf%C3%A9/*', '/café/menu', true],
  ])('%s takes in the path %s: %s', (pattern, path, inside) => {
    expect(new PathScope(pattern).includesPath(path)).toBe(inside)
  })

  it.each<[string, string, Coverage]>([
    ['/api/*', '/api/users', 'all'],
    ['/api/*', '/api', 'all'],
    ['/api/*', '/api/users/{id}', 'all'],
    ['/api/*', '/api/{path*}', 'all'],
    ['/api/*', '/apiary', 'none'],
    ['/api/*', '/', 'none'],
    ['/api/*', '/users/{id}', 'none'],
    ['/api/*', '/{section}/items', 'some'],
    ['/api/*', '/{path*}', 'some'],
    ['/api/*', '/{id?}', 'some'],
    ['/api/v1/*', '/api/{version}/users', 'some'],
    ['/api/v1/*', '/api/{version?}', 'some'],
    ['/api/v1/*', '/api/v2/{id?}', 'none'],
    ['/users', '/users/{id?}', 'some'],
    ['/users', '/users/{id}', 'none'],
    ['/users', '/users/{path*}', 'none'],
    ['/users', '/users', 'all'],
    ['/*', '/{path*}', 'all'],
    ['/*', '/', 'all'],
    ['/api/*', '/api/{id}.{ext}', 'all'],
    ['/api/*', '/{lang}-{region}/about', 'none'],
    ['/en-GB/*', '/{lang}-{region}/about', 'some'],
    ['/v1/*', '/v{version}/users', 'some'],
    ['/api/*', '/v{version}/users', 'none'],
    ['/posts/*', '/posts/{year?}/{month?}', 'all'],
    ['/posts', '/posts/{year?}/{month?}', 'some'],
    ['/posts/2024', '/posts/{year?}/{month?}', 'some'],
    ['/posts/2024/*', '/posts/{year?}/{month?}', 'some'],
    ['/archive/*', '/posts/{year?}/{month?}', 'none'],
  ])('%s against the route %s: %s', (pattern, route, coverage) => {
    expect(new PathScope(pattern).coverage(route)).toBe(coverage)
  })

  it.each(['api/*', '/api*', '/api/*/users', '/api/**', '/users/{id}/*', '/users/:id', '/search?q', '*', '/a b', '/%E0%A4%A/*', ''])(
    'refuses %j at registration, saying what a pattern may be',
    (pattern) => {
      expect(() => new PathScope(pattern)).toThrow(/^router\.use\(".*"\): (a path pattern is a path, optionally ending in "\/\*"|malformed percent-encoding)/)
    },
  )
})
