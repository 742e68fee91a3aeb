import type { Middleware } from '../http/Middleware.js'
import type { Logger } from './Logger.js'

/**
 * One log line per request, with method, path, status, milliseconds and the request's id (`request.id()`, which
 * the router sends back in `X-Request-Id`). The router puts this middleware first when `LOG_REQUESTS=true`
 * (`fw serve` sets it); otherwise a request pays nothing for it.
 */
export function requestLog(logger: Logger): Middleware {
  const info = logger.info?.bind(logger)
  if (!info) throw new Error('LOG_REQUESTS=true needs a logger with info(); the router\'s logger has none')
  return async (request, next) => {
    const started = performance.now()
    const response = await next()
    info('request', {
      requestId: request.id(),
      method: request.method(),
      path: request.uri(),
      status: response.getStatusCode(),
      ms: Math.round((performance.now() - started) * 10) / 10,
    })
    return response
  }
}
