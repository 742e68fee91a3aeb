import { DomainPattern } from './DomainPattern.js'
import type { RouteDefinition } from './RouteDefinition.js'

/**
 * The path of a route with its parameters filled in (`{path*}` keeps its slashes; an optional parameter not given is
 * left out, with its slash); values that are not parameters go into the query string. The static part is
 * percent-encoded too, so that a route with non-ASCII in its pattern gives a URL that is valid in a `Location` header.
 */
export function routeUrl(route: RouteDefinition, params: Record<string, string | number>): string {
  const rest = new URLSearchParams()
  for (const key of Object.keys(params)) {
    if (!route.paramNames.includes(key)) rest.append(key, String(params[key]))
  }
  const name = route.routeName ?? route.pattern
  let absent: string | undefined
  const path = route.pattern
    .split(/(\{[A-Za-z_][A-Za-z0-9_]*[?*]?\})/)
    .map((part, index) => {
      if (index % 2 === 0) return encodeURI(part)
      const key = part.slice(1, -1).replace(/[?*]$/, '')
      const value = Object.hasOwn(params, key) ? params[key] : undefined
      if (value === undefined) {
        if (!part.endsWith('?}')) throw new Error(`Route "${name}" needs the parameter "${key}"`)
        absent ??= key
        return ''
      }
      if (absent !== undefined) throw new Error(`Route "${name}": "${key}" is given without "${absent}", the optional parameter before it`)
      const text = String(value)
      return part.endsWith('*}') ? text.split('/').map(encodeURIComponent).join('/') : encodeURIComponent(text)
    })
    .join('')
  const query = rest.toString()
  // Absent optional parameters leave their slashes behind: `/posts/{year?}/{month?}` without both is `/posts//`.
  const cleanPath = path.length > 1 ? path.replace(/\/+$/, '') || '/' : path
  return query ? `${cleanPath}?${query}` : cleanPath
}

/**
 * The origin of a domain route's URL, `http://acme.example.com`, with its domain's parameters filled in: the scheme
 * and port of `APP_URL` when it is set (`APP_URL=http://localhost:8000` gives `http://acme.localhost:8000` for
 * `{account}.localhost`), else `http://`. Undefined for a route without a domain, whose URL is a path.
 */
export function routeOrigin(route: RouteDefinition, params: Record<string, string | number>): string | undefined {
  if (route.domain === undefined) return undefined
  const host = new DomainPattern(route.domain).fill(params, route.routeName ?? route.pattern)
  let scheme = 'http:'
  let port = ''
  try {
    const app = new URL(process.env.APP_URL ?? '')
    if (app.protocol === 'https:' || app.protocol === 'http:') ({ protocol: scheme, port } = app)
  } catch {
    // No APP_URL, or not a URL: http on the default port.
  }
  return `${scheme}//${host}${port ? `:${port}` : ''}`
}
