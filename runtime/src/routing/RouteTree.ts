import { HttpError } from '../http/HttpError.js'
import type { RouteDefinition } from './RouteDefinition.js'

/** The routes registered for one path, by method, and the `Allow` header they add up to. */
export interface Endpoint {
  readonly routes: Map<string, RouteDefinition>
  allow: string
}

export interface RouteMatch {
  readonly endpoint: Endpoint
  /** The parameter values in path order, percent-decoded. */
  readonly values: string[]
}

interface Node {
  readonly children: Map<string, Node>
  /** The same static children as a list, compared in place while there are few of them. */
  readonly childList: { readonly segment: string; readonly node: Node }[]
  param: Node | null
  /** A catch-all `{path*}`: the rest of the path, one segment or more. */
  rest: Node | null
  endpoint: Endpoint | null
}

/** Up to this many static children are compared in place; past it, one map lookup of the segment is cheaper. */
const SCAN_LIMIT = 8

const PARAMETER = /^\{([A-Za-z_][A-Za-z0-9_]*)(\*)?\}$/
const NO_VALUES: string[] = []

function createNode(): Node {
  return { children: new Map(), childList: [], param: null, rest: null, endpoint: null }
}

function addTo(endpoint: Endpoint, method: string, route: RouteDefinition): void {
  endpoint.routes.set(method, route)
  const methods = new Set(endpoint.routes.keys())
  if (methods.has('GET')) methods.add('HEAD')
  methods.add('OPTIONS')
  endpoint.allow = [...methods].sort().join(', ')
}

/** Drops one trailing slash, so that `/users/` finds `/users`. */
export function normalizePath(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path
}

function decodeSegment(segment: string): string {
  if (!segment.includes('%')) return segment
  try {
    return decodeURIComponent(segment)
  } catch {
    throw new HttpError(400, 'Malformed URL')
  }
}

/**
 * Finds the routes for a path in time that follows the path's length, not the number of routes:
 * fully static paths by one map lookup, parametric ones by walking a tree of path segments
 * (a static segment is tried before a parameter, with backtracking).
 */
export class RouteTree {
  private readonly statics = new Map<string, Endpoint>()
  private readonly root = createNode()

  /**
   * Registers a route for one method; a segment holding `{` is a parameter
   * (`parameterNames` has checked the pattern before).
   */
  add(method: string, pattern: string, route: RouteDefinition): void {
    const path = normalizePath(pattern)
    if (!path.includes('{')) {
      let endpoint = this.statics.get(path)
      if (!endpoint) this.statics.set(path, (endpoint = { routes: new Map(), allow: '' }))
      addTo(endpoint, method, route)
      return
    }
    let node = this.root
    for (const segment of path.split('/').slice(1)) {
      if (segment.endsWith('*}')) {
        node.rest ??= createNode()
        node = node.rest
      } else if (segment.includes('{')) {
        node.param ??= createNode()
        node = node.param
      } else {
        let child = node.children.get(segment)
        if (!child) {
          node.children.set(segment, (child = createNode()))
          node.childList.push({ segment, node: child })
        }
        node = child
      }
    }
    node.endpoint ??= { routes: new Map(), allow: '' }
    addTo(node.endpoint, method, route)
  }

  /** The endpoint for a path and the parameter values, or null. Throws HttpError 400 on bad percent-encoding. */
  find(rawPath: string, method: string): RouteMatch | null {
    const path = normalizePath(rawPath)
    // A percent-encoded path is decoded once, segment by segment. One rule for `%2F`: it is never a
    // separator. Inside a parameter it stays in the value; a static path cannot match it.
    const decoded = path.includes('%') ? path.split('/').map(decodeSegment) : null
    const endpoint = decoded ? staticOf(this.statics, decoded) : this.statics.get(path)
    if (endpoint && (endpoint.routes.has(method) || (method === 'HEAD' && endpoint.routes.has('GET')))) {
      return { endpoint, values: NO_VALUES }
    }
    const values: string[] = []
    const found = walk(this.root, path, 1, decoded, 1, values)
    if (found && (!endpoint || found.routes.has(method) || (method === 'HEAD' && found.routes.has('GET')))) {
      return { endpoint: found, values }
    }
    return endpoint ? { endpoint, values: NO_VALUES } : found ? { endpoint: found, values } : null
  }

  /** Parameter names of a pattern in order; throws on a malformed parameter. */
  static parameterNames(pattern: string): string[] {
    const names: string[] = []
    for (const segment of pattern.split('/')) {
      if (!segment.includes('{') && !segment.includes('}')) continue
      const match = PARAMETER.exec(segment)
      if (!match) {
        throw new Error(`Route "${pattern}": a parameter must be a whole path segment like {id}, got "${segment}"`)
      }
      if (names.includes(match[1]!)) throw new Error(`Route "${pattern}": parameter {${match[1]}} appears twice`)
      if (match[2] && !pattern.endsWith(segment)) throw new Error(`Route "${pattern}": a catch-all {${match[1]}*} must be the last segment`)
      names.push(match[1]!)
    }
    return names
  }
}

/**
 * Matches the path from `start` (just past a `/`) on, one segment at a time, in the string as it is:
 * no split, and no substring for a static segment while a node has few children. A percent-encoded
 * path comes with its `decoded` segments, and `index` is the current one's.
 */
function walk(node: Node, path: string, start: number, decoded: readonly string[] | null, index: number, values: string[]): Endpoint | null {
  if (start > path.length) return node.endpoint
  let end = path.indexOf('/', start)
  if (end === -1) end = path.length
  const segment = decoded ? decoded[index]! : undefined
  const child = segment !== undefined ? node.children.get(segment) : staticChild(node, path, start, end)
  if (child) {
    const found = walk(child, path, end + 1, decoded, index + 1, values)
    if (found) return found
  }
  if (node.param && end > start) {
    values.push(segment ?? path.slice(start, end))
    const found = walk(node.param, path, end + 1, decoded, index + 1, values)
    if (found) return found
    values.pop()
  }
  if (node.rest && end > start && node.rest.endpoint) {
    values.push(decoded ? decoded.slice(index).join('/') : path.slice(start))
    return node.rest.endpoint
  }
  return null
}

/** The static endpoint of a decoded path; none when a segment holds a decoded `/`. */
function staticOf(statics: Map<string, Endpoint>, decoded: readonly string[]): Endpoint | undefined {
  for (const segment of decoded) if (segment.includes('/')) return undefined
  return statics.get(decoded.join('/'))
}

function staticChild(node: Node, path: string, start: number, end: number): Node | undefined {
  const list = node.childList
  if (list.length > SCAN_LIMIT) return node.children.get(path.slice(start, end))
  const length = end - start
  for (let i = 0; i < list.length; i++) {
    const { segment, node: child } = list[i]!
    if (segment.length === length && path.startsWith(segment, start)) return child
  }
  return undefined
}
