import { modelConfig } from '../database/ModelConfig.js'
import { DomainPattern } from './DomainPattern.js'
import type { RouteDefinition } from './RouteDefinition.js'

/**
 * A value for `router.url()`: text, a number, or, for a parameter bound to a model (`.bind('post', Post)`), its row,
 * which gives its key, or the column the pattern names (`{post:slug}`).
 */
export type UrlParam = string | number | object

/** The values of `router.url()` by parameter: `{ post }` with the row of a bound model, `{ id: 5 }`, `{ page: 2 }`. */
export type UrlParams = Readonly<Record<string, UrlParam>>

/**
 * The path of a route with its parameters filled in (`{path*}` keeps its slashes; an optional parameter not given is
 * left out, with its slash); values that are not parameters go into the query string. The static part is
 * percent-encoded too, so that a route with non-ASCII in its pattern gives a URL that is valid in a `Location` header.
 */
export function routeUrl(route: RouteDefinition, given: UrlParams): string {
  const params = textOf(route, given)
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
export function routeOrigin(route: RouteDefinition, params: UrlParams): string | undefined {
  if (route.domain === undefined) return undefined
  const host = new DomainPattern(route.domain).fill(textOf(route, params), route.routeName ?? route.pattern)
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

/**
 * The values as text and numbers: a row given for a bound parameter becomes its key, or the value of the column its
 * pattern names (`{post:slug}`). A row for a parameter bound to no model, or without that column, is a mistake: an
 * Error that says which.
 */
function textOf(route: RouteDefinition, params: UrlParams): Record<string, string | number> {
  let text: Record<string, string | number> | undefined
  for (const key of Object.keys(params)) {
    const value = params[key]
    if (typeof value !== 'object' || value === null) continue
    const name = route.routeName ?? route.pattern
    const model = route.bindings?.[key]
    if (model === undefined) throw new TypeError(`Route "${name}": {${key}} takes text or a number; a row is for a parameter bound to a model (.bind('${key}', Model))`)
    const column = route.bindingFields?.[key] ?? modelConfig(model).primaryKey
    const field = (value as Record<string, unknown>)[column]
    if (typeof field !== 'string' && typeof field !== 'number' && typeof field !== 'bigint') {
      throw new TypeError(`Route "${name}": the row given for {${key}} has no ${column} to put in the path`)
    }
    ;(text ??= { ...(params as Record<string, string | number>) })[key] = typeof field === 'bigint' ? field.toString() : field
  }
  return text ?? (params as Record<string, string | number>)
}
