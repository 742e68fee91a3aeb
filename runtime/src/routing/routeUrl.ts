import type { RouteDefinition } from './RouteDefinition.js'

/**
 * The path of a route with its parameters filled in (`{path*}` keeps its slashes); values that are not
 * parameters go into the query string. The static part is percent-encoded too, so that a route with
 * non-ASCII in its pattern gives a URL that is valid in a `Location` header.
 */
export function routeUrl(route: RouteDefinition, params: Record<string, string | number>): string {
  const rest = new URLSearchParams()
  for (const key of Object.keys(params)) {
    if (!route.paramNames.includes(key)) rest.append(key, String(params[key]))
  }
  const name = route.routeName ?? route.pattern
  const path = route.pattern
    .split(/(\{[A-Za-z_][A-Za-z0-9_]*[?*]?\})/)
    .map((part, index) => {
      if (index % 2 === 0) return encodeURI(part)
      const key = part.slice(1, -1).replace(/[?*]$/, '')
      const value = Object.hasOwn(params, key) ? params[key] : undefined
      if (value === undefined) {
        if (part.endsWith('?}')) return ''
        throw new Error(`Route "${name}" needs the parameter "${key}"`)
      }
      const text = String(value)
      return part.endsWith('*}') ? text.split('/').map(encodeURIComponent).join('/') : encodeURIComponent(text)
    })
    .join('')
  const query = rest.toString()
  const cleanPath = path.length > 1 ? path.replace(/\/+$/, '') : path
  return query ? `${cleanPath}?${query}` : cleanPath
}
