import { describe, expect, it } from 'vitest'
import { authorizeRoute } from '../../src/authorization/authorizeRoute.js'
import { needsBoundModels, readsBoundModels } from '../../src/http/boundModels.js'
import type { Middleware } from '../../src/http/Middleware.js'

describe('readsBoundModels', () => {
  it('marks the same function, which route model binding then loads the models before', () => {
    const own: Middleware = (_request, next) => next()
    expect(needsBoundModels(own)).toBe(false)
    expect(readsBoundModels(own)).toBe(own)
    expect(needsBoundModels(own)).toBe(true)
  })

  it('is on can: and on authorizeRoute given as a function, whatever its name', () => {
    expect(needsBoundModels(authorizeRoute('update', 'post'))).toBe(true)
    expect(needsBoundModels(authorizeRoute('viewReports'))).toBe(true)
  })
})
