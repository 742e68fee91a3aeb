import type { Middleware } from '../http/Middleware.js'
import { documented } from '../http/middlewareDocs.js'
import { HttpError } from '../http/HttpError.js'
import type { Request } from '../http/Request.js'
import { Response } from '../http/Response.js'
import { Limit, type RateLimitHeaders } from '../ratelimit/Limit.js'
import { RateLimiter, type LimiterCallback, type RateLimitResult } from '../ratelimit/RateLimiter.js'

/** What the OpenAPI document shows on every throttled route. */
const DOCS = {
  responses: {
    429: {
      description: 'Too many requests: past the rate limit',
      headers: {
        'Retry-After': 'Seconds to wait before trying again',
        'X-RateLimit-Limit': 'Requests allowed in the window',
        'X-RateLimit-Remaining': 'Requests left in the window (0)',
        'X-RateLimit-Reset': 'When the window ends, in seconds since 1970',
      },
    },
  },
} as const

/**
 * Rate-limits the routes it runs on, as Laravel's `throttle` middleware: by a named limiter (`throttle('api')`,
 * defined with `RateLimiter.for`), or inline, `maxAttempts` per `decayMinutes` per signed-in user (else per address).
 * The routes name it as a string too: `.middleware('throttle:api')`, `.middleware('throttle:60,1')`.
 *
 * Every answer within the limit carries `X-RateLimit-Limit` and `X-RateLimit-Remaining` (of the tightest limit when
 * there are several); past it, the answer is 429 `{"error":"Too Many Requests"}` with `Retry-After` and
 * `X-RateLimit-Reset` (or the limit's own `response`), and the handler does not run. Counted in the application's
 * database (on Redis when `CACHE_STORE=redis`), so that every process shares the count; a store that cannot answer
 * gives 503, never a free pass. An unknown limiter name throws here, at startup.
 *
 * @example
 * ```ts
 * Route.group({ prefix: '/api', middleware: ['throttle:api'] }, () => { … })
 * Route.post('/contact', [ContactController, 'send']).middleware(throttle(5, 1))
 * ```
 */
export function throttle(limiter: string): Middleware
export function throttle(maxAttempts: number | string, decayMinutes?: number | string): Middleware
export function throttle(first: string | number, decayMinutes?: number | string): Middleware {
  const named = typeof first === 'string' && !/^\d+$/.test(first.trim())
  if (named) {
    if (decayMinutes !== undefined) throw new Error(`throttle("${first}", …): a named limiter takes no window; its Limit says it`)
    return documented(limitBy(first, namedLimits(first)), DOCS)
  }
  const max = Number(first)
  const minutes = decayMinutes === undefined ? 1 : Number(decayMinutes)
  if (!Number.isInteger(max) || max < 1 || !Number.isFinite(minutes) || minutes <= 0) {
    throw new Error(`throttle:${first}${decayMinutes === undefined ? '' : `,${decayMinutes}`}: use throttle:<requests>,<minutes> (throttle:60,1) or a limiter's name (throttle:api)`)
  }
  const inline: LimiterCallback = (request) => Limit.perMinute(max, minutes).by(requester(request))
  return documented(limitBy(`${max},${minutes}`, inline), DOCS)
}

/** The limits of the limiter `name`, looked up at each request (so `RateLimiter.for` may redefine it). */
function namedLimits(name: string): LimiterCallback {
  if (RateLimiter.limiter(name) === undefined) {
    throw new Error(`Rate limiter "${name}" is not defined: define it in bootstrap/app.ts, RateLimiter.for('${name}', (request) => Limit.perMinute(60).by(request.ip()))`)
  }
  return (request) => RateLimiter.limiter(name)!(request)
}

/** The signed-in user (`request.user` with an id), else the client's address. */
function requester(request: Request): string {
  const id = (request.user as { id?: unknown } | undefined)?.id
  return id === undefined || id === null ? `ip:${request.ip()}` : `user:${String(id)}`
}

function limitBy(prefix: string, limitsOf: LimiterCallback): Middleware {
  return async (request, next) => {
    const given = await limitsOf(request)
    const limits = (Array.isArray(given) ? given : [given]) as readonly Limit[]
    let tightest: { limit: Limit; result: RateLimitResult } | undefined
    for (let index = 0; index < limits.length; index++) {
      const limit = limits[index]!
      if (limit.unlimited) continue
      // The limit's place in the list keeps two limits of one limiter, with the same key, apart.
      const result = await RateLimiter.attempt(`${prefix}|${index}|${limit.key}`, limit.maxAttempts, limit.decaySeconds)
      if (!result.allowed) return tooManyRequests(request, limit, result)
      if (tightest === undefined || tighter(result.remaining, limit, tightest)) tightest = { limit, result }
    }
    const response = await next()
    if (tightest === undefined) return response
    return response
      .setHeader('X-RateLimit-Limit', String(tightest.limit.maxAttempts))
      .setHeader('X-RateLimit-Remaining', String(tightest.result.remaining))
  }
}

/** Fewer requests left; on a tie, the smaller limit (its numbers say more). */
function tighter(remaining: number, limit: Limit, than: { limit: Limit; result: RateLimitResult }): boolean {
  return remaining < than.result.remaining || (remaining === than.result.remaining && limit.maxAttempts < than.limit.maxAttempts)
}

async function tooManyRequests(request: Request, limit: Limit, result: RateLimitResult): Promise<Response> {
  const headers: RateLimitHeaders = {
    'Retry-After': String(result.retryAfter),
    'X-RateLimit-Limit': String(limit.maxAttempts),
    'X-RateLimit-Remaining': '0',
    'X-RateLimit-Reset': String(Math.ceil(result.resetAt / 1000)),
  }
  if (limit.answer === undefined) throw new HttpError(429, 'Too Many Requests', { headers })
  const answered = await limit.answer(request, headers)
  const response = answered instanceof Response ? answered : Response.json(answered, 429)
  for (const [name, value] of Object.entries(headers)) if (!response.getHeader(name)) response.setHeader(name, value)
  return response
}
