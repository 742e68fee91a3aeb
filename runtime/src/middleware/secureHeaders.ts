import type { Middleware } from '../routing/RouteDefinition.js'

export interface SecureHeadersOptions {
  /** Who may frame the pages: `'none'` (default) or `'self'`. */
  frameAncestors?: 'none' | 'self'
  /** Default `strict-origin-when-cross-origin`. */
  referrerPolicy?: string
  /** `Strict-Transport-Security` over https (default one year, with subdomains); false sends none. */
  hsts?: string | false
}

/**
 * Security headers for pages: on every HTML response it adds `X-Content-Type-Options: nosniff`, framing rules
 * (`Content-Security-Policy: frame-ancestors 'none'` and `X-Frame-Options: DENY`), a `Referrer-Policy`, and over
 * https `Strict-Transport-Security`. A header the handler set itself is left as it is; JSON and other
 * responses only get `nosniff`.
 *
 * @example
 * ```ts
 * router.use(secureHeaders())
 * ```
 */
export function secureHeaders(options: SecureHeadersOptions = {}): Middleware {
  const ancestors = options.frameAncestors ?? 'none'
  const frameOptions = ancestors === 'none' ? 'DENY' : 'SAMEORIGIN'
  const referrer = options.referrerPolicy ?? 'strict-origin-when-cross-origin'
  const hsts = options.hsts ?? 'max-age=31536000; includeSubDomains'

  return async (request, next) => {
    const response = await next()
    const add = (name: string, value: string) => {
      if (!response.hasHeader(name)) response.setHeader(name, value)
    }
    add('X-Content-Type-Options', 'nosniff')
    if (!(response.getHeader('Content-Type') ?? '').startsWith('text/html')) return response
    add('Content-Security-Policy', `frame-ancestors '${ancestors}'`)
    add('X-Frame-Options', frameOptions)
    add('Referrer-Policy', referrer)
    if (hsts && request.secure()) add('Strict-Transport-Security', hsts)
    return response
  }
}
