import { describe, expect, it } from 'vitest'
import { environment, isProduction } from '../../src/config/environment.js'

describe('environment()', () => {
  it.each([
    [{}, 'local', false],
    [{ APP_ENV: 'staging' }, 'staging', false],
    [{ APP_ENV: 'production' }, 'production', true],
    // fw start sets NODE_ENV=production; a .env written for a laptop still says APP_ENV=local.
    [{ NODE_ENV: 'production', APP_ENV: 'local' }, 'production', true],
    [{ NODE_ENV: 'test' }, 'local', false],
  ])('%o is %s', (env, name, production) => {
    expect(environment(env)).toBe(name)
    expect(isProduction(env)).toBe(production)
  })
})
