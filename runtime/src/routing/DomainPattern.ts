import { compileSegment, namesOf, parseDomain, shapeOf, splitSegment, type PatternSegment, type SegmentMatcher } from './routePattern.js'

/**
 * The host a group of routes answers on, `{account}.example.com`: each label static, a parameter (one whole label,
 * never a dot inside) or text and parameters (`{account}-eu`, split as path segments are). Hosts are compared in
 * lower case, without their port.
 *
 * @example
 * ```ts
 * new DomainPattern('{account}.example.com').match('acme.example.com') // ['acme']
 * new DomainPattern('{account}.example.com').match('example.com')      // null
 * ```
 */
export class DomainPattern {
  readonly pattern: string
  /** The parameter names, in order: they come before the path's in a route's parameters. */
  readonly names: readonly string[]
  /** The pattern with its parameters' names left out: two patterns of one shape take the same hosts. */
  readonly shape: string
  private readonly labels: readonly PatternSegment[]
  /** The compiled pattern of each label of text and parameters (`{account}-eu`), by the label's index. */
  private readonly matchers: readonly (SegmentMatcher | undefined)[]

  /** Throws, saying what a domain may be, on a malformed pattern. */
  constructor(pattern: string) {
    this.pattern = pattern
    this.labels = parseDomain(pattern, `Domain "${pattern}"`)
    this.names = this.labels.flatMap(namesOf)
    this.shape = this.labels.map(shapeOf).join('.')
    this.matchers = this.labels.map((label) => (label.kind === 'mixed' ? compileSegment(label.literals) : undefined))
  }

  /** The parameter values of a host (lower case, no port), or null when the host is not one of this pattern's. */
  match(host: string): string[] | null {
    const labels = host.split('.')
    if (labels.length !== this.labels.length) return null
    const values: string[] = []
    for (let i = 0; i < labels.length; i++) {
      const label = this.labels[i]!
      const text = labels[i]!
      if (label.kind === 'static') {
        if (label.text !== text) return null
      } else if (label.kind === 'mixed') {
        if (!splitSegment(this.matchers[i]!, text, values)) return null
      } else {
        if (text === '') return null
        values.push(text)
      }
    }
    return values
  }

  /** The host with the parameters filled in, for `router.url()`; throws naming the route when one is missing. */
  fill(params: Readonly<Record<string, string | number>>, routeName: string): string {
    const value = (name: string) => {
      const given = Object.hasOwn(params, name) ? params[name] : undefined
      if (given === undefined) throw new Error(`Route "${routeName}" needs the parameter "${name}" of its domain ${this.pattern}`)
      return encodeURIComponent(String(given).toLowerCase())
    }
    return this.labels
      .map((label) => {
        if (label.kind === 'static') return label.text
        if (label.kind !== 'mixed') return value(label.name)
        return label.literals.map((literal, index) => (index === 0 ? literal : value(label.names[index - 1]!) + literal)).join('')
      })
      .join('.')
  }
}
