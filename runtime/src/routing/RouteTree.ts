import { HttpError } from '../http/HttpError.js'
import type { RouteDefinition } from './RouteDefinition.js'
import { compileSegment, parsePattern, shapeOf, splitSegment, type PatternSegment, type Requirement, type SegmentMatcher } from './routePattern.js'

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
  /** Segments of text and parameters (`{id}.{ext}`), the most literal text first; null (the common case) when none. */
  mixed: MixedChild[] | null
  param: Node | null
  /** A catch-all `{path*}`: the rest of the path, one segment or more. */
  rest: Node | null
  endpoint: Endpoint | null
}

/** A child for a segment of text and parameters: its compiled pattern (see `compileSegment`) and its key. */
interface MixedChild {
  readonly matcher: SegmentMatcher
  /** The form of the segment with the names left out, and the `where` patterns of its parameters. */
  readonly key: string
  /** The length of its text, which orders the children. */
  readonly text: number
  readonly node: Node
}

/** Up to this many static children are compared in place; past it, one map lookup of the segment is cheaper. */
const SCAN_LIMIT = 8

const NO_VALUES: string[] = []

function createNode(): Node {
  return { children: new Map(), childList: [], mixed: null, param: null, rest: null, endpoint: null }
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
 * fully static paths by one map lookup, parametric ones by walking a tree of path segments.
 * At each segment the walk tries, in this order and backtracking to the next when the rest of the path
 * does not match: a static segment (`me`), segments of text and parameters (`{id}.{ext}`, see
 * `splitSegment`), a whole-segment parameter (`{id}`), a catch-all (`{path*}`).
 */
export class RouteTree {
  private readonly statics = new Map<string, Endpoint>()
  private readonly root = createNode()

  /**
   * Registers a route for one method. A pattern with optional parameters at its end (`/posts/{year?}/{month?}`) is
   * registered once per form, with all, some and none of them (`/posts/{year}/{month}`, `/posts/{year}`, `/posts`):
   * the values of those absent are not in a match. Throws on a malformed pattern (see `parsePattern`).
   */
  add(method: string, pattern: string, route: RouteDefinition): void {
    const segments = parsePattern(normalizePath(pattern), `Route "${pattern}"`)
    let length = segments.length
    for (;;) {
      this.addForm(method, segments.slice(0, length), route)
      const last = segments[length - 1]
      if (last?.kind !== 'param' || !last.optional) return
      length--
    }
  }

  private addForm(method: string, segments: readonly PatternSegment[], route: RouteDefinition): void {
    if (segments.every((segment) => segment.kind === 'static')) {
      const path = `/${segments.map((segment) => segment.text).join('/')}`
      let endpoint = this.statics.get(path)
      if (!endpoint) this.statics.set(path, (endpoint = { routes: new Map(), allow: '' }))
      addTo(endpoint, method, route)
      return
    }
    let node = this.root
    for (const segment of segments) {
      if (segment.kind === 'rest') {
        node.rest ??= createNode()
        node = node.rest
      } else if (segment.kind === 'param') {
        node.param ??= createNode()
        node = node.param
      } else if (segment.kind === 'mixed') {
        node = mixedChild(node, segment.literals, segment.names.map((name) => route.requirementOf(name)))
      } else {
        let child = node.children.get(segment.text)
        if (!child) {
          node.children.set(segment.text, (child = createNode()))
          node.childList.push({ segment: segment.text, node: child })
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
    const found = walk(this.root, path, 1, decoded, 1, values, method)
    if (found && (!endpoint || found.routes.has(method) || (method === 'HEAD' && found.routes.has('GET')))) {
      return { endpoint: found, values }
    }
    return endpoint ? { endpoint, values: NO_VALUES } : found ? { endpoint: found, values } : null
  }
}

/**
 * The child of a node for a segment of text and parameters, made on first use; one for each form of segment and
 * `where` patterns of its parameters (`{id}.{ext}` and `{name}.{format}` share one). The children are tried in order
 * of the length of their text, longest first, so that `{name}.tar.gz` is tried before `{name}.{ext}`; forms of equal
 * length in the order added.
 */
function mixedChild(node: Node, literals: readonly string[], requirements: readonly (Requirement | undefined)[]): Node {
  const key = [shapeOf({ kind: 'mixed', literals, names: [] }), ...requirements.map((required) => (required ? `/${required.source}/${required.flags}` : ''))].join('\0')
  const existing = node.mixed?.find((child) => child.key === key)
  if (existing) return existing.node
  const child = { matcher: compileSegment(literals, requirements), key, text: literals.join('').length, node: createNode() }
  node.mixed = [...(node.mixed ?? []), child].sort((a, b) => b.text - a.text)
  return child.node
}

/**
 * Matches the path from `start` (just past a `/`) on, one segment at a time, in the string as it is:
 * no split, and no substring for a static segment while a node has few children. A percent-encoded
 * path comes with its `decoded` segments, and `index` is the current one's.
 */
function walk(
  node: Node,
  path: string,
  start: number,
  decoded: readonly string[] | null,
  index: number,
  values: string[],
  method: string,
): Endpoint | null {
  if (start > path.length) return node.endpoint
  let end = path.indexOf('/', start)
  if (end === -1) end = path.length
  const segment = decoded ? decoded[index]! : undefined
  const child = segment !== undefined ? node.children.get(segment) : staticChild(node, path, start, end)
  if (child) {
    const found = walk(child, path, end + 1, decoded, index + 1, values, method)
    if (found) return found
  }
  if (node.mixed !== null && end > start) {
    const text = segment ?? path.slice(start, end)
    const mixed = node.mixed
    // Routes of one form whose where patterns differ (GET with one, POST without) are apart: the first one that
    // splits the segment wins unless it lacks the method and another has it.
    let other: { endpoint: Endpoint; values: string[] } | null = null
    for (let i = 0; i < mixed.length; i++) {
      const mark = values.length
      if (!splitSegment(mixed[i]!.matcher, text, values)) continue
      const found = walk(mixed[i]!.node, path, end + 1, decoded, index + 1, values, method)
      if (found) {
        if (mixed.length === 1 || serves(found, method)) return found
        other ??= { endpoint: found, values: values.slice(mark) }
      }
      values.length = mark
    }
    if (other !== null) {
      values.push(...other.values)
      return other.endpoint
    }
  }
  if (node.param && end > start) {
    values.push(segment ?? path.slice(start, end))
    const found = walk(node.param, path, end + 1, decoded, index + 1, values, method)
    if (found) return found
    values.pop()
  }
  if (node.rest && end > start && node.rest.endpoint) {
    values.push(decoded ? decoded.slice(index).join('/') : path.slice(start))
    return node.rest.endpoint
  }
  return null
}

/** Whether an endpoint has a route for the method (a GET route serves HEAD). */
function serves(endpoint: Endpoint, method: string): boolean {
  return endpoint.routes.has(method) || (method === 'HEAD' && endpoint.routes.has('GET'))
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
