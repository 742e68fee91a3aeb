import { describe, expect, it } from 'vitest'
import { DatabaseUnavailableError } from '../../src/database/DatabaseUnavailableError.js'
import { isMysqlUnavailable, translateMysql } from '../../src/database/mysqlDialect.js'

/** An error as mysql2 gives it: a name (MySQL's numbering, absent for MariaDB's own numbers), a number, a message. */
const mysqlError = (message: string, fields: { code?: string; errno?: number; fatal?: boolean }) => Object.assign(new Error(message), fields)

describe('isMysqlUnavailable', () => {
  it.each([
    ['server down', mysqlError('connect ECONNREFUSED 127.0.0.1:3306', { code: 'ECONNREFUSED', fatal: true })],
    ['connection killed or server gone', mysqlError('Connection lost: The server closed the connection.', { code: 'PROTOCOL_CONNECTION_LOST', fatal: true })],
    ['connect timeout', mysqlError('connect ETIMEDOUT', { code: 'ETIMEDOUT', fatal: true })],
    ['too many connections', mysqlError('Too many connections', { code: 'ER_CON_COUNT_ERROR', errno: 1040 })],
    ['lock wait timeout', mysqlError('Lock wait timeout exceeded; try restarting transaction', { code: 'ER_LOCK_WAIT_TIMEOUT', errno: 1205 })],
    ['KILL QUERY', mysqlError('Query execution was interrupted', { code: 'ER_QUERY_INTERRUPTED', errno: 1317 })],
    ["MariaDB's max_statement_time", mysqlError('Query execution was interrupted (max_statement_time exceeded)', { errno: 1969 })],
    ["MySQL's max_execution_time", mysqlError('Query execution was interrupted, maximum statement execution time exceeded', { code: 'ER_QUERY_TIMEOUT', errno: 3024 })],
    ['a read-only server in a failover', mysqlError('The MySQL server is running with the --read-only option', { code: 'ER_OPTION_PREVENTS_STATEMENT', errno: 1290 })],
    ['a command on a closed connection', mysqlError("Can't add new command when connection is in closed state", { fatal: true })],
  ])('%s: 503', (_, error) => {
    expect(isMysqlUnavailable(error)).toBe(true)
    const translated = translateMysql(error)
    expect(translated).toBeInstanceOf(DatabaseUnavailableError)
    expect((translated as DatabaseUnavailableError).cause).toBe(error)
  })

  it.each([
    ['a duplicate key', mysqlError("Duplicate entry 'a@x' for key 'email'", { code: 'ER_DUP_ENTRY', errno: 1062 })],
    ['a syntax error', mysqlError('You have an error in your SQL syntax', { code: 'ER_PARSE_ERROR', errno: 1064 })],
    ['a wrong password', mysqlError("Access denied for user 'app'@'localhost'", { code: 'ER_ACCESS_DENIED_ERROR', errno: 1045, fatal: true })],
    ['a deadlock, as PostgreSQL’s', mysqlError('Deadlock found when trying to get lock', { code: 'ER_LOCK_DEADLOCK', errno: 1213 })],
  ])('%s: the error itself', (_, error) => {
    expect(isMysqlUnavailable(error)).toBe(false)
    expect(translateMysql(error)).toBe(error)
  })
})
