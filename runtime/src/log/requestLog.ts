import { randomUUID } from 'node:crypto'
import type { Middleware } from '../routing/RouteDefinition.js'
import type { Logger } from './Logger.js'

/** An id a client or proxy sent that is safe to log and echo: short, no spaces or control characters. */
const SAFE_ID = /^[A-Za-z0-9._:@-]{1,128}$/

/**
 * One log line per request, with method, path, status, milliseconds and a request id: the `X-Request-Id` the
 * client or a proxy sent, else a new one, which is sent back in `X-Request-Id`. The router puts this middleware
 * first when `LOG_REQUESTS=true` (`fw serve` sets it); otherwise a request pays nothing for it.
 */
export function requestLog(logger: Logger): Middleware {
  const info = logger.info?.bind(logger)
  if (!info) throw new Error('LOG_REQUESTS=true needs a logger with info(); the router\'s logger has none')
  return async (request, next) => {
    const started = performance.now()
    const sent = request.header('x-request-id')
    const id = sent !== null && SAFE_ID.test(sent) ? sent : randomUUID()
    const response = await next()
    if (!response.hasHeader('X-Request-Id')) response.setHeader('X-Request-Id', id)
    info('request', {
      requestId: id,
      method: request.method(),
      path: request.uri(),
      status: response.getStatusCode(),
      ms: Math.round((performance.now() - started) * 10) / 10,
    })
    return response
  }
}
