import type { Request } from '../http/Request.js'
import { Response } from '../http/Response.js'
import type { Middleware } from '../http/Middleware.js'

export interface CorsOptions {
  /**
   * Which origins may call the API from a browser: `'*'` (the default: any, without credentials), one origin,
   * a list, a pattern, or a function that decides.
   */
  origin?: '*' | string | readonly string[] | RegExp | ((origin: string) => boolean)
  /** Methods a preflight allows (default GET, HEAD, POST, PUT, PATCH, DELETE). */
  methods?: readonly string[]
  /** Request headers a preflight allows (default: those the preflight asks for). */
  headers?: readonly string[]
  /** Response headers scripts may read, beyond the CORS-safelisted ones. */
  exposeHeaders?: readonly string[]
  /** Let browsers send cookies and read the answer (needs an explicit origin, never `'*'`). */
  credentials?: boolean
  /** Seconds a browser may cache a preflight's answer (default 600). */
  maxAge?: number
}

const DEFAULT_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']

/**
 * Cross-origin resource sharing: it answers preflights (an OPTIONS with `Access-Control-Request-Method`) itself
 * with 204, and adds `Access-Control-Allow-Origin` to the answers to allowed origins. A request from an origin that
 * is not allowed gets no CORS headers, so the browser keeps the answer from the page. Unless `origin` is `'*'`,
 * every answer it sees gets `Vary: Origin` (those without CORS headers too), so that a cache never gives one
 * origin's answer to another. Nothing is sent unless the application adds this middleware.
 *
 * It works for every path (`router.use(cors())`), for some (`router.use('/api/*', cors())`), or on a group or a
 * route: a preflight runs through the middleware of the route it asks about, so put `cors()` before `auth` there,
 * as a browser sends no credentials with a preflight.
 *
 * @example
 * ```ts
 * router.use('/api/*', cors({ origin: ['https://app.example.com'], credentials: true }))
 * Route.group({ prefix: '/partners', middleware: [cors({ origin: /\.partner\.example$/ }), 'auth'] }, () => { … })
 * ```
 */
export function cors(options: CorsOptions = {}): Middleware {
  const origin = options.origin ?? '*'
  if (options.credentials && origin === '*') {
    throw new Error("cors: credentials need the allowed origins named (origin: ['https://…']), never '*'")
  }
  const allows = originMatcher(origin)
  const methods = (options.methods ?? DEFAULT_METHODS).join(', ')
  const allowedHeaders = options.headers?.join(', ')
  const exposed = options.exposeHeaders?.join(', ')
  const maxAge = String(options.maxAge ?? 600)
  const anyOrigin = origin === '*'

  function decorate(response: Response, requestOrigin: string): Response {
    response.setHeader('Access-Control-Allow-Origin', anyOrigin ? '*' : requestOrigin)
    if (!anyOrigin) varyOn(response, 'Origin')
    if (options.credentials) response.setHeader('Access-Control-Allow-Credentials', 'true')
    return response
  }

  return async (request, next) => {
    const requestOrigin = request.header('origin')
    if (requestOrigin === null || !allows(requestOrigin)) {
      // What is sent depends on the origin unless any origin is allowed: the answer without CORS headers varies too.
      return anyOrigin ? next() : varyOn(await next(), 'Origin')
    }
    if (isPreflight(request)) {
      const preflight = decorate(new Response('', 204), requestOrigin)
        .setHeader('Access-Control-Allow-Methods', methods)
        .setHeader('Access-Control-Max-Age', maxAge)
      const headers = allowedHeaders ?? request.header('access-control-request-headers')
      if (headers) preflight.setHeader('Access-Control-Allow-Headers', headers)
      if (allowedHeaders === undefined) varyOn(preflight, 'Access-Control-Request-Headers')
      return preflight
    }
    const response = decorate(await next(), requestOrigin)
    if (exposed) response.setHeader('Access-Control-Expose-Headers', exposed)
    return response
  }
}

function isPreflight(request: Request): boolean {
  return request.method() === 'OPTIONS' && request.header('access-control-request-method') !== null
}

function originMatcher(origin: NonNullable<CorsOptions['origin']>): (value: string) => boolean {
  if (origin === '*') return () => true
  if (typeof origin === 'string') return (value) => value === origin
  if (origin instanceof RegExp) return (value) => origin.test(value)
  if (typeof origin === 'function') return origin
  const list = new Set(origin)
  return (value) => list.has(value)
}

/** Adds a request header's name to `Vary`, once. */
function varyOn(response: Response, name: string): Response {
  const current = response.getHeader('Vary')
  if (!current) return response.setHeader('Vary', name)
  const listed = current.split(',').some((part) => part.trim() === '*' || part.trim().toLowerCase() === name.toLowerCase())
  return listed ? response : response.setHeader('Vary', `${current}, ${name}`)
}
