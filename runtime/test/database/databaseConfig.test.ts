import { describe, expect, it } from 'vitest'
import { databaseConfig } from '../../src/database/databaseConfig.js'

describe('databaseConfig', () => {
  it('takes what is given, then the environment, then the defaults', () => {
    expect(databaseConfig({ root: '/app', connectionTimeoutMs: 250 }, { DB_POOL_MAX: '4', DB_CONNECTION_TIMEOUT_MS: '9000', DB_STATEMENT_TIMEOUT_MS: '' })).toEqual({
      root: '/app',
      poolMax: 4,
      idleTimeoutMs: 10_000,
      connectionTimeoutMs: 250,
      statementTimeoutMs: 0,
      busyTimeoutMs: 5_000,
      prepare: true,
      pipeline: true,
      driver: 'pg',
    })
  })

  it('runs PostgreSQL on pg unless DB_DRIVER or `driver` names postgres.js, and names a driver it does not know', () => {
    expect(databaseConfig({}, { DB_DRIVER: 'postgres' }).driver).toBe('postgres')
    expect(databaseConfig({}, { DB_DRIVER: '' }).driver).toBe('pg')
    expect(databaseConfig({ driver: 'pg' }, { DB_DRIVER: 'postgres' }).driver).toBe('pg')
    expect(() => databaseConfig({}, { DB_DRIVER: 'postgres.js' })).toThrow('Invalid database setting DB_DRIVER="postgres.js": use pg or postgres')
    expect(() => databaseConfig({ driver: 'mysql' as 'pg' }, {})).toThrow('Invalid database setting driver: "mysql": use pg or postgres')
  })

  it('prepares statements unless DB_PREPARE or `prepare` says not to', () => {
    expect(databaseConfig({}, { DB_PREPARE: 'false' }).prepare).toBe(false)
    expect(databaseConfig({}, { DB_PREPARE: '0' }).prepare).toBe(false)
    expect(databaseConfig({}, { DB_PREPARE: 'TRUE' }).prepare).toBe(true)
    expect(databaseConfig({ prepare: true }, { DB_PREPARE: 'false' }).prepare).toBe(true)
    expect(() => databaseConfig({}, { DB_PREPARE: 'maybe' })).toThrow('Invalid database setting DB_PREPARE="maybe": use true or false')
  })

  it('pipelines plain queries unless DB_PIPELINE or `pipeline` says not to', () => {
    expect(databaseConfig({}, {}).pipeline).toBe(true)
    expect(databaseConfig({}, { DB_PIPELINE: 'off' }).pipeline).toBe(false)
    expect(databaseConfig({ pipeline: true }, { DB_PIPELINE: 'no' }).pipeline).toBe(true)
    expect(() => databaseConfig({}, { DB_PIPELINE: 'sometimes' })).toThrow('Invalid database setting DB_PIPELINE="sometimes": use true or false')
  })

  it('names a setting that is not a whole number', () => {
    expect(() => databaseConfig({}, { DB_POOL_MAX: '0' })).toThrow('Invalid database setting DB_POOL_MAX="0": use a whole number, 1 or more')
    expect(() => databaseConfig({}, { DB_BUSY_TIMEOUT_MS: '5s' })).toThrow(
      'Invalid database setting DB_BUSY_TIMEOUT_MS="5s": use a whole number of milliseconds, 0 or more',
    )
    expect(() => databaseConfig({ idleTimeoutMs: -1 }, {})).toThrow('Invalid database setting idleTimeoutMs: -1: use a whole number of milliseconds, 0 or more')
  })
})
