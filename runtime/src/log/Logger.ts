import { createRequire } from 'node:module'
import { styleText } from 'node:util'
import { isProduction } from '../config/environment.js'

/** Fields that go with a log line: `{ method: 'GET', path: '/hello', status: 200 }`. */
export type LogFields = Record<string, unknown>

/**
 * Where the framework writes what it has to say: every error, and one line per request when asked for.
 * `console` is one; `createLogger()` gives JSON lines (pino) in production and short coloured lines otherwise.
 *
 * @example
 * ```ts
 * const router = new Router(container, { logger: createLogger() })
 * ```
 */
export interface Logger {
  /**
   * A failure: the message says what and where; the error (and any detail) follows, then the line's fields as a
   * plain object. The router's lines end with `{ requestId }`: `logger.error('[fw] GET /boom failed:', error, { requestId })`.
   */
  error(message: string, ...details: unknown[]): void
  /** Information such as a request line (see `LOG_REQUESTS`); a logger without it logs errors only. */
  info?(message: string, fields: LogFields): void
}

export interface LoggerOptions {
  /**
   * JSON lines are written in blocks of up to 4 KB, at least once a second and at once after an error, rather than
   * one write each: for a queue worker, whose line per job would otherwise cost it a fifth of its time. A process
   * killed with -9 loses at most its last second of lines; one that exits writes them out first.
   */
  buffered?: boolean
}

/** How long a buffered JSON line may wait for others to make up a block. */
const FLUSH_INTERVAL_MS = 1_000
/** The block a buffered JSON logger writes at once. */
const BLOCK_BYTES = 4_096

/** Production (`NODE_ENV` or `APP_ENV` = production) or `LOG_FORMAT=json` logs JSON; anything else pretty lines. */
export function createLogger(options: LoggerOptions = {}): Logger {
  const json = process.env.LOG_FORMAT === 'json' || (process.env.LOG_FORMAT !== 'pretty' && isProduction())
  return json ? jsonLogger(options.buffered === true) : prettyLogger()
}

/** pino, loaded only when JSON logs are wanted: a development server never pays for it. */
function jsonLogger(buffered: boolean): Logger {
  const require = createRequire(import.meta.url)
  const pino = require('pino') as typeof import('pino')
  const destination = buffered ? bufferedStdout(pino) : undefined
  const logger = pino.pino({ base: { pid: process.pid }, serializers: { error: pino.stdSerializers.err } }, destination?.stream)
  return {
    info: (message, fields) => {
      logger.info(fields, message)
      destination?.written()
    },
    error: (message, ...details) => {
      const { error, fields, rest } = sortDetails(details)
      if (error !== undefined) fields.error = error
      if (rest.length > 0) fields.details = rest
      logger.error(fields, message)
      destination?.flush()
    },
  }
}

/**
 * Standard output in blocks (`LoggerOptions.buffered`): written when a block is full, by a timer once a second when
 * lines wait (an idle process makes no write), after an error, and in full when the process exits.
 */
function bufferedStdout(pino: typeof import('pino')) {
  const stream = pino.destination({ dest: 1, sync: false, minLength: BLOCK_BYTES })
  let waiting = false
  const flush = () => {
    if (!waiting) return
    waiting = false
    stream.flush()
  }
  setInterval(flush, FLUSH_INTERVAL_MS).unref()
  process.once('exit', () => stream.flushSync())
  return {
    stream,
    /** A line was written: the timer writes it out within a second if no block does. */
    written: () => {
      waiting = true
    },
    flush: () => {
      waiting = true
      flush()
    },
  }
}

/** An error's details: the first Error, the fields of the plain objects (for a JSON line's own keys), and the rest. */
function sortDetails(details: readonly unknown[]): { error: Error | undefined; fields: LogFields; rest: unknown[] } {
  let error: Error | undefined
  const fields: LogFields = {}
  const rest: unknown[] = []
  for (const detail of details) {
    if (detail instanceof Error && error === undefined) error = detail
    else if (isFields(detail)) Object.assign(fields, detail)
    else rest.push(detail)
  }
  return { error, fields, rest }
}

function isFields(value: unknown): value is LogFields {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype
}

function statusColor(status: number): 'red' | 'yellow' | 'cyan' | 'green' {
  return status >= 500 ? 'red' : status >= 400 ? 'yellow' : status >= 300 ? 'cyan' : 'green'
}

function prettyLogger(): Logger {
  return {
    info(message, fields) {
      if (typeof fields.status === 'number' && typeof fields.method === 'string') {
        const { method, path, status, ms } = fields as { method: string; path: string; status: number; ms: number }
        console.log(`${styleText('dim', time())} ${styleText('bold', method)} ${path} ${styleText(statusColor(status), String(status))} ${styleText('dim', `${ms.toFixed(1)} ms`)}`)
        return
      }
      const shown = Object.entries(fields).map(([key, value]) => `${key}=${String(value)}`)
      console.log(`${styleText('dim', time())} ${message}${shown.length > 0 ? ` ${styleText('dim', shown.join(' '))}` : ''}`)
    },
    error(message, ...details) {
      // The message says what and where, with the fields (the request id) on its line; the error (with its stack)
      // follows, for a person to read.
      const { error, fields, rest } = sortDetails(details)
      const shown = Object.entries(fields).map(([key, value]) => `${key}=${String(value)}`)
      const line = shown.length > 0 ? `${message} ${styleText('dim', shown.join(' '))}` : message
      console.error(`${styleText('red', time())} ${line}`, ...(error === undefined ? rest : [error, ...rest]))
    },
  }
}

function time(): string {
  return new Date().toTimeString().slice(0, 8)
}
