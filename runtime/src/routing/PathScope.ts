import type { Request } from '../http/Request.js'
import { docsOf, documented } from '../http/middlewareDocs.js'
import type { Middleware, RouteDefinition } from './RouteDefinition.js'
import { compileSegment, parsePattern, splitSegment, type PatternSegment } from './routePattern.js'

/** Which of a route's paths a scope takes in: all of them, none, or some (a parameter's value decides). */
export type Coverage = 'all' | 'none' | 'some'

/** `/health`, `/api/*`, `/*`: static segments (none that reads as a parameter), and `*` only as the whole last one. */
const PATTERN = /^\/(?:[^/*{}?#\s:][^/*{}?#\s]*\/)*(?:[^/*{}?#\s:][^/*{}?#\s]*|\*)?$/

/**
 * The path pattern of `router.use(path, middleware)`: one path (`/health`), or a path and every path below it
 * (`/api/*`: `/api`, `/api/users`, `/api/users/1`); `/*` is every path. Paths are compared segment by segment,
 * percent-decoded, as routes are matched: `/%61pi/users` is inside `/api/*`, as it reaches the route `/api/users`.
 *
 * A route is placed against the scope once, when the router compiles (`coverage`): the middleware is in the route's
 * pipeline or not, at no cost per request, unless a parameter stands where the scope names a segment
 * (`/{locale}/dashboard` against `/api/*`); only such a route checks the request's value. The answers that no route
 * gives (404, 405, OPTIONS, public files, the fallback) check the request's path.
 *
 * @example
 * ```ts
 * new PathScope('/api/*').includesPath('/api/users/1') // true
 * new PathScope('/api/*').coverage('/{section}/items') // 'some'
 * ```
 */
export class PathScope {
  readonly pattern: string
  private readonly segments: readonly string[]
  /** True for `…/*`: the path and every path below it. */
  private readonly below: boolean

  /** Throws, saying what is supported, for anything but a path with an optional `/*` at its end. */
  constructor(pattern: string) {
    if (!PATTERN.test(pattern)) {
      throw new Error(
        `router.use("${pattern}"): a path pattern is a path, optionally ending in "/*" for every path below it ` +
          `("/health", "/api/*", "/*"); parameters, "?" and "*" elsewhere are not supported`,
      )
    }
    this.pattern = pattern
    this.below = pattern.endsWith('*')
    try {
      this.segments = nonEmpty(this.below ? pattern.slice(0, -1) : pattern).map((segment) => decodeURIComponent(segment))
    } catch {
      throw new Error(`router.use("${pattern}"): malformed percent-encoding in the path pattern`)
    }
  }

  /** Whether the scope takes in all, none or some of the paths of a route pattern (`/users/{id?}`, `/files/{path*}`). */
  coverage(routePattern: string): Coverage {
    const parts = partsOf(routePattern)
    let coverage = this.cover(parts)
    // `/users/{id?}` is two paths, `/users` and `/users/{id}`: the scope may take in one and not the other.
    for (let length = parts.length; isOptional(parts[length - 1]); length--) {
      if (this.cover(parts.slice(0, length - 1)) !== coverage) coverage = 'some'
    }
    return coverage
  }

  /** Whether a request's path lies inside the scope: for the answers that no route gives. */
  includesPath(path: string): boolean {
    const segments: string[] = []
    for (const segment of nonEmpty(path)) {
      try {
        segments.push(segment.includes('%') ? decodeURIComponent(segment) : segment)
      } catch {
        segments.push(segment) // malformed: the router answers 400 Malformed URL, inside the scope it names
      }
    }
    return this.includes(segments)
  }

  /**
   * The layer a route's pipeline gets for middleware of this scope: the middleware itself when every path of the
   * route lies inside, none when none does, else the middleware behind a check of the request's parameter values.
   */
  layerFor(route: RouteDefinition, middleware: Middleware): Middleware | undefined {
    const coverage = this.coverage(route.pattern)
    if (coverage !== 'some') return coverage === 'all' ? middleware : undefined
    const parts = partsOf(route.pattern)
    const layer: Middleware = (request: Request, next) => (this.includes(pathOf(parts, request.params)) ? middleware(request, next) : next())
    // The route may meet the middleware: the OpenAPI document says what it may answer.
    const docs = docsOf(middleware)
    return docs ? documented(layer, docs) : layer
  }

  /** The layer for the answers that no route gives (404, 405, OPTIONS, public files, the fallback): behind a check of the path. */
  layerForPaths(middleware: Middleware): Middleware {
    return (request: Request, next) => (this.includesPath(request.uri()) ? middleware(request, next) : next())
  }

  private cover(parts: readonly PatternSegment[]): Coverage {
    let decided = true
    for (let i = 0; i < this.segments.length; i++) {
      const part = parts[i]
      // The route's paths end before the scope's does.
      if (part === undefined) return 'none'
      if (part.kind === 'static') {
        if (part.text !== this.segments[i]) return 'none'
      } else if (part.kind === 'rest') {
        return 'some' // a catch-all takes one segment or more: its value decides
      } else if (part.kind === 'mixed' && !splitSegment(compileSegment(part.literals), this.segments[i]!, [])) {
        return 'none' // `v{version}` is never `api`
      } else {
        decided = false
      }
    }
    // One path alone takes in no longer path (nor a catch-all, which takes one segment at least).
    if (!this.below && parts.length > this.segments.length) return 'none'
    return decided ? 'all' : 'some'
  }

  private includes(segments: readonly string[]): boolean {
    const scope = this.segments
    if (segments.length < scope.length || (!this.below && segments.length !== scope.length)) return false
    for (let i = 0; i < scope.length; i++) if (segments[i] !== scope[i]) return false
    return true
  }
}

/** Whether the first argument of `router.use` is a path pattern rather than a middleware alias. */
export function isPathPattern(value: unknown): value is string {
  return typeof value === 'string' && (value.startsWith('/') || value.includes('*'))
}

function nonEmpty(path: string): string[] {
  return path.split('/').filter((segment) => segment !== '')
}

function partsOf(routePattern: string): PatternSegment[] {
  return parsePattern(`/${nonEmpty(routePattern).join('/')}`, `Route "${routePattern}"`)
}

function isOptional(part: PatternSegment | undefined): boolean {
  return part?.kind === 'param' && part.optional
}

/** The path a route matched, as segments: its pattern with the parameter values in place (a catch-all's split). */
function pathOf(parts: readonly PatternSegment[], params: Readonly<Record<string, string>>): string[] {
  const segments: string[] = []
  for (const part of parts) {
    if (part.kind === 'static') {
      segments.push(part.text)
    } else if (part.kind === 'mixed') {
      segments.push(part.literals.map((literal, index) => (index === 0 ? literal : params[part.names[index - 1]!] + literal)).join(''))
    } else {
      const value = params[part.name]
      if (value === undefined) break // an absent optional parameter: the ones after it are absent too
      if (part.kind === 'rest') segments.push(...nonEmpty(value))
      else segments.push(value)
    }
  }
  return segments
}
