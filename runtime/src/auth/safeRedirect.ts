/**
 * Where a browser may be sent after signing in: a path of this site, or `/`. `//host` and `/\host` lead to
 * another site, and a path as browsers send it is printable ASCII.
 *
 * @example
 * ```ts
 * return Response.redirect(safeRedirect(request.input('redirect')), 303)
 * ```
 */
export function safeRedirect(target: unknown): string {
  if (typeof target !== 'string') return '/'
  if (!target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\') || /[^\x21-\x7e]/.test(target)) return '/'
  return target
}
