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
  param: Node | null
  endpoint: Endpoint | null
}

const PARAMETER = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/
const NO_VALUES: string[] = []

function createNode(): Node {
  return { children: new Map(), param: null, endpoint: null }
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
      if (segment.includes('{')) {
        node.param ??= createNode()
        node = node.param
      } else {
        let child = node.children.get(segment)
        if (!child) node.children.set(segment, (child = createNode()))
        node = child
      }
    }
    node.endpoint ??= { routes: new Map(), allow: '' }
    addTo(node.endpoint, method, route)
  }

  /** The endpoint for a path and the parameter values, or null. Throws HttpError 400 on bad percent-encoding. */
  find(rawPath: string, method: string): RouteMatch | null {
    let path = normalizePath(rawPath)
    let segments: string[] | undefined
    if (path.includes('%')) {
      segments = path.split('/').map(decodeSegment)
      path = segments.join('/')
    }
    const endpoint = this.statics.get(path)
    if (endpoint && (endpoint.routes.has(method) || (method === 'HEAD' && endpoint.routes.has('GET')))) {
      return { endpoint, values: NO_VALUES }
    }
    segments ??= path.split('/')
    const values: string[] = []
    const found = walk(this.root, segments, 1, values)
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
      names.push(match[1]!)
    }
    return names
  }
}

function walk(node: Node, segments: string[], index: number, values: string[]): Endpoint | null {
  if (index === segments.length) return node.endpoint
  const segment = segments[index]!
  const child = node.children.get(segment)
  if (child) {
    const found = walk(child, segments, index + 1, values)
    if (found) return found
  }
  if (node.param && segment !== '') {
    values.push(segment)
    const found = walk(node.param, segments, index + 1, values)
    if (found) return found
    values.pop()
  }
  return null
}
