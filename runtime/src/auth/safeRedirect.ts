/**
 * Where a browser may be sent after signing in: a path of this site, else `fallback` (the home page, `/` unless
 * given). `//host` and `/\host` lead to another site, and a path as browsers send it is printable ASCII.
 *
 * @example
 * ```ts
 * return Response.redirect(safeRedirect(request.input('redirect'), '/me'), 303)
 * ```
 */
export function safeRedirect(target: unknown, fallback = '/'): string {
  if (typeof target !== 'string') return fallback
  if (!target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\') || /[^\x21-\x7e]/.test(target)) return fallback
  return target
}
