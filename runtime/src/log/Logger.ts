import { createRequire } from 'node:module'
import { styleText } from 'node:util'

/** Fields that go with a log line: `{ method: 'GET', path: '/hello', status: 200 }`. */
export type LogFields = Record<string, unknown>

/**
 * Where the framework writes what it has to say: one line per request (when asked for) and every error.
 * In production, JSON lines for a log collector (pino); in development, short coloured lines for a person.
 *
 * @example
 * ```ts
 * const logger = createLogger()
 * logger.info({ userId: 7 }, 'signed in')
 * ```
 */
export interface Logger {
  info(fields: LogFields, message: string): void
  error(fields: LogFields, message: string): void
}

/** Production (`NODE_ENV` or `APP_ENV` = production) or `LOG_FORMAT=json` logs JSON; anything else pretty lines. */
export function createLogger(): Logger {
  const json = process.env.LOG_FORMAT === 'json' || (process.env.LOG_FORMAT !== 'pretty' && isProduction())
  return json ? jsonLogger() : prettyLogger()
}

function isProduction(): boolean {
  return process.env.NODE_ENV === 'production' || process.env.APP_ENV === 'production'
}

/** pino, loaded only when JSON logs are wanted: a development server never pays for it. */
function jsonLogger(): Logger {
  const require = createRequire(import.meta.url)
  const pino = require('pino') as typeof import('pino')
  const logger = pino.pino({ base: { pid: process.pid }, serializers: { error: pino.stdSerializers.err } })
  return {
    info: (fields, message) => logger.info(fields, message),
    error: (fields, message) => logger.error(fields, message),
  }
}

const STATUS_COLOR = (status: number) => (status >= 500 ? 'red' : status >= 400 ? 'yellow' : status >= 300 ? 'cyan' : 'green')

function prettyLogger(): Logger {
  return {
    info(fields, message) {
      if (typeof fields.status === 'number' && typeof fields.method === 'string') {
        const { method, path, status, ms } = fields as { method: string; path: string; status: number; ms: number }
        console.log(`${styleText('dim', time())} ${styleText('bold', method)} ${path} ${styleText(STATUS_COLOR(status), String(status))} ${styleText('dim', `${ms.toFixed(1)} ms`)}`)
        return
      }
      console.log(`${styleText('dim', time())} ${message}`, Object.keys(fields).length > 0 ? fields : '')
    },
    error(fields, message) {
      // The message says what and where; the error (with its stack) follows, for a person to read.
      console.error(`${styleText('red', time())} ${message}`, ...(fields.error === undefined ? [] : [fields.error]))
    },
  }
}

function time(): string {
  return new Date().toTimeString().slice(0, 8)
}
