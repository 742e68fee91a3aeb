import type { Request } from '../http/Request.js'
import { Response } from '../http/Response.js'
import type { Middleware } from '../http/Middleware.js'

export interface SecureHeadersOptions {
  /** Who may frame the pages: `'none'` (default) or `'self'`. */
  frameAncestors?: 'none' | 'self'
  /** Default `strict-origin-when-cross-origin`. */
  referrerPolicy?: string
  /** `Strict-Transport-Security` over https (default one year, with subdomains); false sends none. */
  hsts?: string | false
}

/** Adds the page headers to a response that has none of its own; the router runs one on every HTML response. */
export type PageHeaders = (response: Response, request: Request) => void

/** Whether a response is an HTML page: the only kind a browser frames or renders as a document. */
export function isHtml(response: Response): boolean {
  return response.getHeader('content-type')?.startsWith('text/html') === true
}

/**
 * The headers an HTML page needs: `X-Content-Type-Options: nosniff`, framing rules
 * (`Content-Security-Policy: frame-ancestors 'none'` and `X-Frame-Options: DENY`), a `Referrer-Policy`,
 * and over https `Strict-Transport-Security`. A header the response already has is left as it is.
 * The headers are checked once, here (an option with CR or LF throws): a page pays only for adding them.
 */
export function pageHeaders(options: SecureHeadersOptions = {}): PageHeaders {
  const ancestors = options.frameAncestors ?? 'none'
  const defaults = checkedHeaders({
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': `frame-ancestors '${ancestors}'`,
    'X-Frame-Options': ancestors === 'none' ? 'DENY' : 'SAMEORIGIN',
    'Referrer-Policy': options.referrerPolicy ?? 'strict-origin-when-cross-origin',
  })
  const hstsValue = options.hsts ?? 'max-age=31536000; includeSubDomains'
  const hsts = hstsValue ? checkedHeaders({ 'Strict-Transport-Security': hstsValue })[0] : undefined
  return (response, request) => {
    for (const { name, key, value } of defaults) response.addHeaderIfAbsent(name, key, value)
    if (hsts !== undefined && request.secure()) response.addHeaderIfAbsent(hsts.name, hsts.key, hsts.value)
  }
}

/** Headers as `addHeaderIfAbsent` takes them, checked as `setHeader` checks a header (a Response made with them throws). */
function checkedHeaders(headers: Record<string, string>): { name: string; key: string; value: string }[] {
  new Response('', 200, headers)
  return Object.entries(headers).map(([name, value]) => ({ name, key: name.toLowerCase(), value }))
}

/**
 * Security headers as middleware, for options of your own on some routes: HTML responses get the page
 * headers (see `pageHeaders`), every other response `X-Content-Type-Options: nosniff`. The router already
 * gives every HTML response the defaults (`router.secureHeaders(options)` changes them for the whole
 * application, `false` turns them off).
 *
 * @example
 * ```ts
 * Route.group({ middleware: [secureHeaders({ frameAncestors: 'self' })] }, () => { … })
 * ```
 */
export function secureHeaders(options: SecureHeadersOptions = {}): Middleware {
  const addPageHeaders = pageHeaders(options)
  return async (request, next) => {
    const response = await next()
    if (isHtml(response)) addPageHeaders(response, request)
    else if (!response.hasHeader('X-Content-Type-Options')) response.setHeader('X-Content-Type-Options', 'nosniff')
    return response
  }
}
