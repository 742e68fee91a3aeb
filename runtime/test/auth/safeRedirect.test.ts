import { describe, expect, it } from 'vitest'
import { safeRedirect } from '../../src/auth/safeRedirect.js'

describe('safeRedirect', () => {
  it.each(['/me', '/admin/tables/users?q=ada', '/'])('keeps the path %s of this site', (path) => {
    expect(safeRedirect(path, '/me')).toBe(path)
  })

  it.each([undefined, 42, '', 'https://evil.example', '//evil.example', '/\\evil.example', '/caf\u00e9', '/a b'])(
    'sends %o home: the fallback, else /',
    (target) => {
      expect(safeRedirect(target, '/me')).toBe('/me')
      expect(safeRedirect(target)).toBe('/')
    },
  )
})
