import { describe, expect, it } from 'vitest'
import { DomainPattern } from '../../src/routing/DomainPattern.js'

describe('DomainPattern', () => {
  it.each<[string, string, string[] | null]>([
    ['{account}.example.com', 'acme.example.com', ['acme']],
    ['{account}.example.com', 'example.com', null],
    ['{account}.example.com', 'a.b.example.com', null],
    ['{account}.example.com', 'acme.example.org', null],
    ['{account}.example.com', '.example.com', null],
    ['{account}.{region}.example.com', 'acme.eu.example.com', ['acme', 'eu']],
    ['{account}-eu.example.com', 'acme-eu.example.com', ['acme']],
    ['{account}-eu.example.com', 'acme-us.example.com', null],
    ['admin.Example.com', 'admin.example.com', []],
    ['admin.example.com', 'api.example.com', null],
  ])('%s takes %s: %j', (pattern, host, values) => {
    expect(new DomainPattern(pattern).match(host)).toEqual(values)
  })

  it('knows its parameter names and its shape, whatever the names', () => {
    const domain = new DomainPattern('{account}.{region}.example.com')
    expect(domain.names).toEqual(['account', 'region'])
    expect(domain.shape).toBe(new DomainPattern('{team}.{zone}.example.com').shape)
    expect(domain.shape).not.toBe(new DomainPattern('{team}.example.com').shape)
  })

  it('fills its parameters in for a URL, in lower case, and names what is missing', () => {
    expect(new DomainPattern('{account}-eu.example.com').fill({ account: 'Acme' }, 'home')).toBe('acme-eu.example.com')
    expect(new DomainPattern('{a}.{b}.example.com').fill({ a: 'x', b: 'y' }, 'home')).toBe('x.y.example.com')
    expect(() => new DomainPattern('{account}.example.com').fill({}, 'home')).toThrow(
      'Route "home" needs the parameter "account" of its domain {account}.example.com',
    )
  })
})
