import { describe, expect, it } from 'vitest'
import { compileSegment, keyedPattern, parseDomain, parsePattern, splitSegment } from '../../src/routing/routePattern.js'

const parse = (pattern: string) => parsePattern(pattern, `Route "${pattern}"`)

/**
 * The values a mixed segment's template gives a text, or null: `split('{id}.{ext}', 'a.b')` is `['a', 'b']`. `where`
 * gives parameters their patterns.
 */
function split(template: string, text: string, where: Record<string, RegExp | string> = {}): string[] | null {
  const [segment] = parse(`/${template}`)
  if (segment?.kind !== 'mixed') throw new Error(`${template} is not a mixed segment`)
  const requirements = segment.names.map((name) => {
    const pattern = where[name]
    return pattern === undefined ? undefined : typeof pattern === 'string' ? { source: pattern, flags: '' } : { source: pattern.source, flags: pattern.flags }
  })
  const values: string[] = ['before']
  if (!splitSegment(compileSegment(segment.literals, requirements), text, values)) {
    expect(values).toEqual(['before']) // a segment that does not match pushes nothing
    return null
  }
  return values.slice(1)
}

describe('parsePattern', () => {
  it('reads static segments, parameters, optional ones, a catch-all and segments of text and parameters', () => {
    expect(parse('/')).toEqual([])
    expect(parse('/users/{id}')).toEqual([{ kind: 'static', text: 'users' }, { kind: 'param', name: 'id', optional: false }])
    expect(parse('/posts/{year?}/{month?}').slice(1)).toEqual([
      { kind: 'param', name: 'year', optional: true },
      { kind: 'param', name: 'month', optional: true },
    ])
    expect(parse('/files/{path*}')[1]).toEqual({ kind: 'rest', name: 'path' })
    expect(parse('/images/{id}.{ext}')[1]).toEqual({ kind: 'mixed', literals: ['', '.', ''], names: ['id', 'ext'] })
    expect(parse('/files/{name}-v{version}')[1]).toEqual({ kind: 'mixed', literals: ['', '-v', ''], names: ['name', 'version'] })
    expect(parse('/{lang}-{region}/about')[0]).toEqual({ kind: 'mixed', literals: ['', '-', ''], names: ['lang', 'region'] })
    expect(parse('/v{version}')[0]).toEqual({ kind: 'mixed', literals: ['v', ''], names: ['version'] })
  })

  it.each([
    ['/files/{name}{ext}', '{name}{ext} in "{name}{ext}" has no text between the parameters, so where one ends is unknown; put a separator between them, as {name}-{ext}'],
    ['/x/a{b}{c}.d', '{b}{c} in "a{b}{c}.d" has no text between the parameters'],
    ['/users/{id?}/edit', 'the optional parameter {id?} is followed by "edit"; only optional parameters may follow an optional one (/posts/{year?}/{month?})'],
    ['/posts/{year?}/{month}', 'the optional parameter {year?} is followed by "{month}"'],
    ['/a/{x?}/{rest*}', 'the optional parameter {x?} is followed by "{rest*}"'],
    ['/files/{name?}.txt', 'an optional parameter {name?} must be a whole path segment, not part of "{name?}.txt"'],
    ['/files/{path*}.txt', 'a catch-all {path*} must be a whole path segment'],
    ['/files/{path*}/more', 'a catch-all {path*} must be the last segment'],
    ['/a/{id}/b/{id}', 'parameter {id} appears twice'],
    ['/a/{id}.{id}', 'parameter {id} appears twice'],
    ['/a/{1st}', '"{1st}" is not a parameter: a name is letters, digits and _, not starting with a digit, as {id}'],
    ['/a/{na me}', '"{na me}" is not a parameter'],
    ['/a/{}', '"{}" is not a parameter'],
    ['/a/{id', 'unmatched brace in "{id"'],
    ['/a/id}.x', 'unmatched brace in "id}.x"'],
  ])('refuses %s, saying why', (pattern, message) => {
    expect(() => parse(pattern)).toThrow(`Route "${pattern}": ${message}`)
  })
})

describe('splitSegment: as Laravel (Symfony\'s route compiler) splits a segment of text and parameters', () => {
  it.each<[string, string, string[] | null]>([
    ['{id}.{ext}', 'photo.jpg', ['photo', 'jpg']],
    ['{name}.{ext}', 'archive.tar.gz', ['archive', 'tar.gz']],
    ['{id}.{ext}', 'a.b.c', ['a', 'b.c']],
    ['{id}.{ext}', 'photo', null],
    ['{id}.{ext}', 'photo.', null],
    ['{id}.{ext}', '.jpg', null],
    // A parameter followed by a separator in its segment never contains that separator.
    ['{param}-static', 'x-static', ['x']],
    ['{param}-static', 'x-y-static', null],
    ['{name}-v{version}', 'lib-v2', ['lib', '2']],
    ['{name}-v{version}', 'my-lib-v2', null],
    ['{name}-v{version}', 'lib-v', null],
    ['{lang}-{region}', 'en-GB', ['en', 'GB']],
    ['{lang}-{region}', 'en-GB-x', ['en', 'GB-x']],
    ['{lang}-{region}', 'en', null],
    ['{a}_{b}', 'x_y_z', ['x', 'y_z']],
    ['{a}~{b}', 'x~y', ['x', 'y']],
    ['{id}.json', 'report.json', ['report']],
    ['{id}.json', 'a.json.json', null],
    ['{id}.json', '.json', null],
    ['{id}.json', 'report.xml', null],
    ['{a}.{b}.txt', 'x.y.txt', ['x', 'y']],
    ['{a}.{b}.txt', 'x.y.z.txt', null],
    ['{a}..{b}', 'x...y', ['x', '.y']],
    // Before text that is not a separator, a parameter takes as much as leaves a match.
    ['v{version}', 'v2', ['2']],
    ['v{version}', 'v', null],
    ['v{version}', 'x2', null],
    ['{a}v{b}', 'xvyvz', ['xvy', 'z']],
    ['a{b}a', 'a', null],
    ['a{b}a', 'aa', null],
    ['a{b}a', 'axa', ['x']],
    ['a{b}a', 'axaya', ['xay']],
    // Literal text with a pattern's special characters is text.
    ['{a}(1).{b}', 'x(1).y', ['x', 'y']],
    ['{a}+{b}', 'x+y', ['x', 'y']],
  ])('%s splits %j into %j', (template, text, values) => {
    expect(split(template, text)).toEqual(values)
  })

  it('lets where patterns decide where the parameters split', () => {
    expect(split('{foo}-{bar}-', 'text1-text2-text3-text4-', { foo: '.+' })).toEqual(['text1-text2-text3', 'text4'])
    expect(split('{foo}-{bar}-', 'text1-text2-text3-text4-')).toBeNull()
    expect(split('{name}-v{version}', 'my-lib-v2', { name: '.+' })).toEqual(['my-lib', '2'])
    expect(split('{name}-v{version}', 'my-lib-v2', { name: '.+', version: /\d+/ })).toEqual(['my-lib', '2'])
    expect(split('{name}-v{version}', 'my-lib-vx', { name: '.+', version: /\d+/ })).toBeNull()
    expect(split('{a}-{b}', 'x-y-z', { a: '[a-z]-[a-z]' })).toEqual(['x-y', 'z'])
    // Groups of the where pattern do not shift the values.
    expect(split('{a}-{b}.{c}', '12-ab-cd.e', { a: '(\\d)(\\d)', b: '(a(b))-(c)d' })).toEqual(['12', 'ab-cd', 'e'])
    expect(split('{word}.{ext}', 'äbc.txt', { word: /\p{L}+/u })).toEqual(['äbc', 'txt'])
  })

  it('splits as without a where pattern that cannot share the segment\'s pattern (flags, anchors): the route checks it after', () => {
    expect(split('{foo}-{bar}', 'a-b-c', { foo: /.+/i })).toEqual(['a', 'b-c'])
    expect(split('{foo}-{bar}', 'a-b-c', { foo: '^.+$' })).toEqual(['a', 'b-c'])
  })
})

describe('parseDomain', () => {
  it('reads labels in lower case, with whole or mixed parameters', () => {
    expect(parseDomain('{account}.Example.COM', 'Domain')).toEqual([
      { kind: 'param', name: 'account', optional: false },
      { kind: 'static', text: 'example' },
      { kind: 'static', text: 'com' },
    ])
    expect(parseDomain('{account}-EU.example.com', 'Domain')[0]).toEqual({ kind: 'mixed', literals: ['', '-eu'], names: ['account'] })
  })

  it.each([
    ['https://{account}.example.com', 'a domain is a host name without scheme, port or path, such as {account}.example.com'],
    ['{account}.example.com:8000', 'a domain is a host name without scheme, port or path'],
    ['{account}.example.com/api', 'a domain is a host name without scheme, port or path'],
    ['', 'a domain is a host name without scheme, port or path'],
    ['{account}..com', 'an empty label between dots'],
    ['{account?}.example.com', 'a domain\'s parameters are whole ones, {account}; "{account?}" cannot be optional or a catch-all'],
    ['{account}.{account}.com', 'parameter {account} appears twice'],
  ])('refuses %j, saying why', (domain, message) => {
    expect(() => parseDomain(domain, `Domain "${domain}"`)).toThrow(`Domain "${domain}": ${message}`)
  })
})

describe('keyedPattern', () => {
  const keyed = (pattern: string) => keyedPattern(pattern, `Route "${pattern}"`)

  it('takes the columns out of the parameters, keeping an optional mark', () => {
    expect(keyed('/users/{user}/posts/{post:slug}')).toEqual({ pattern: '/users/{user}/posts/{post}', fields: { post: 'slug' } })
    expect(keyed('/{team:slug}/posts/{post:slug?}')).toEqual({ pattern: '/{team}/posts/{post?}', fields: { team: 'slug', post: 'slug' } })
    expect(keyed('/posts/{post}')).toEqual({ pattern: '/posts/{post}', fields: null })
    expect(parse(keyed('/posts/{post:slug}').pattern)).toEqual([{ kind: 'static', text: 'posts' }, { kind: 'param', name: 'post', optional: false }])
  })

  it('refuses a column that is no name', () => {
    expect(() => keyed('/posts/{post:}')).toThrow('Route "/posts/{post:}": "{post:}" names no column: a column is letters, digits and _, as {post:slug} (or {post:slug?})')
    expect(() => keyed('/posts/{post:a-b}')).toThrow('"{post:a-b}" names no column')
    expect(() => keyed('/files/{path:name*}')).toThrow('"{path:name*}" names no column')
  })
})
