/**
 * One segment of a route's path (or one label of its domain), as `parsePattern` reads it:
 * - `static`: text only, `users`;
 * - `param`: a whole-segment parameter, `{id}`, or an optional one at the end, `{id?}`;
 * - `rest`: a catch-all, `{path*}`, the rest of the path (one segment or more);
 * - `mixed`: text and parameters in one segment, `{id}.{ext}` or `v{version}`: `literals` are the texts around the
 *   parameters, one more than `names` (`['', '.', '']` and `['id', 'ext']`); only the first and the last may be empty.
 */
export type PatternSegment =
  | { readonly kind: 'static'; readonly text: string }
  | { readonly kind: 'param'; readonly name: string; readonly optional: boolean }
  | { readonly kind: 'rest'; readonly name: string }
  | { readonly kind: 'mixed'; readonly literals: readonly string[]; readonly names: readonly string[] }

const NAME = /^([A-Za-z_][A-Za-z0-9_]*)([?*])?$/

/**
 * The segments of a route's path pattern, checked: a parameter is `{name}` with a name of letters, digits and `_`;
 * several may share a segment with text between them (`{id}.{ext}`, `{lang}-{region}`), never two side by side
 * (`{a}{b}` would have no boundary); an optional `{id?}` is a whole segment, followed by optional ones only; a
 * catch-all `{path*}` is the whole last segment; no name appears twice. `label` names the pattern in the errors,
 * which say what is wrong and what would do.
 *
 * @example
 * ```ts
 * parsePattern('/images/{id}.{ext}', 'Route "/images/{id}.{ext}"')
 * // [{ kind: 'static', text: 'images' }, { kind: 'mixed', literals: ['', '.', ''], names: ['id', 'ext'] }]
 * ```
 */
export function parsePattern(path: string, label: string): PatternSegment[] {
  const segments = path.split('/').slice(1).filter((segment, index, all) => segment !== '' || index < all.length - 1)
  const parsed = segments.map((segment) => parseSegment(segment, label))
  checkNames(parsed.flatMap(namesOf), label)
  let optional: string | undefined
  parsed.forEach((segment, index) => {
    if (segment.kind === 'rest' && index < parsed.length - 1) throw new Error(`${label}: a catch-all {${segment.name}*} must be the last segment`)
    if (segment.kind === 'param' && segment.optional) optional ??= segment.name
    else if (optional !== undefined) {
      throw new Error(
        `${label}: the optional parameter {${optional}?} is followed by "${segments[index]}"; only optional parameters may follow ` +
          `an optional one (/posts/{year?}/{month?})`,
      )
    }
  })
  return parsed
}

/**
 * The labels of a domain pattern, `{account}.example.com`: each one static, a parameter or text and parameters
 * (`{account}-eu`), never optional nor a catch-all. Its static text is compared in lower case, as hosts are.
 */
export function parseDomain(domain: string, label: string): PatternSegment[] {
  if (domain === '' || /[/:\s]/.test(domain)) {
    throw new Error(`${label}: a domain is a host name without scheme, port or path, such as {account}.example.com`)
  }
  const parsed = domain.split('.').map((part) => {
    if (part === '') throw new Error(`${label}: an empty label between dots`)
    const segment = parseSegment(part, label)
    if (segment.kind === 'rest' || (segment.kind === 'param' && segment.optional)) {
      throw new Error(`${label}: a domain's parameters are whole ones, {account}; "${part}" cannot be optional or a catch-all`)
    }
    if (segment.kind === 'static') return { kind: 'static', text: segment.text.toLowerCase() } as const
    if (segment.kind === 'mixed') return { ...segment, literals: segment.literals.map((literal) => literal.toLowerCase()) }
    return segment
  })
  checkNames(parsed.flatMap(namesOf), label)
  return parsed
}

/** The parameter names of parsed segments, in order. */
export function namesOf(segment: PatternSegment): readonly string[] {
  if (segment.kind === 'static') return []
  return segment.kind === 'mixed' ? segment.names : [segment.name]
}

/**
 * The key of a segment's form with the names left out: two routes whose segments differ only in their parameters'
 * names (`{id}.{ext}`, `{name}.{format}`) match the same paths, and share a node of the tree.
 */
export function shapeOf(segment: PatternSegment): string {
  switch (segment.kind) {
    case 'static':
      return segment.text
    case 'mixed':
      return segment.literals.join('{}')
    default:
      return segment.kind === 'rest' ? '{*}' : '{}'
  }
}

/** A parameter's own pattern, from `where`: put in its segment's pattern, it decides where the segment splits. */
export interface Requirement {
  readonly source: string
  readonly flags: string
}

/** A segment of text and parameters, compiled (see `compileSegment`): its pattern, and the group of each value. */
export interface SegmentMatcher {
  readonly regex: RegExp
  readonly groups: readonly number[]
}

/** Symfony's route compiler's separators: a parameter followed by one of them in its segment never contains it. */
const SEPARATORS = '/,;.:-_~+*=@|'
const SPECIAL = /[\\^$.*+?()[\]{}|/]/g

/**
 * Compiles a segment of text and parameters (its `literals`, see `PatternSegment`) to one pattern, the way Laravel
 * does through Symfony's route compiler. A parameter with a requirement (`where`) takes what its pattern takes. One
 * without takes one character or more, and, when the text after it starts with a separator (`/ , ; . : - _ ~ + * =
 * @ |`), never that separator: `{name}.{ext}` splits `archive.tar.gz` into `archive` and `tar.gz`, `/a/{param}-static`
 * does not match `/a/x-y-static`. Before other text (`{a}v{b}`) it takes as much as leaves a match. So where a
 * parameter ends is decided here, once; `/{foo}-{bar}-` with `where('foo', '.+')` splits `text1-text2-text3-text4-`
 * into `text1-text2-text3` and `text4`. A requirement with flags other than `u` (`/x/i`) cannot share one pattern: its
 * parameter splits as one without, and the route's `where` checks the value after.
 *
 * @example
 * ```ts
 * const matcher = compileSegment(['', '.', ''])
 * splitSegment(matcher, 'archive.tar.gz', values) // true; values: ['archive', 'tar.gz']
 * ```
 */
export function compileSegment(literals: readonly string[], requirements: readonly (Requirement | undefined)[] = []): SegmentMatcher {
  let source = `^${escape(literals[0]!)}`
  let unicode = false
  let group = 1
  const groups: number[] = []
  for (let i = 1; i < literals.length; i++) {
    const after = literals[i]!
    const required = requirements[i - 1]
    let pattern: string
    if (required !== undefined && embeddable(required)) {
      pattern = required.source
      unicode ||= required.flags === 'u'
      groups.push(group)
      group += 1 + countGroups(required)
    } else {
      const next = after.charAt(0)
      // A decoded %2F is in the segment's text, and stays in the value (never a separator): only the next one is out.
      pattern = next !== '' && next !== '/' && SEPARATORS.includes(next) ? `[^${escape(next)}]+` : '[^]+'
      groups.push(group++)
    }
    source += `(${pattern})${escape(after)}`
  }
  return { regex: new RegExp(`${source}$`, unicode ? 'u' : ''), groups }
}

/**
 * Splits a segment's text by its compiled pattern (see `compileSegment`) and pushes the parameters' values; false
 * (nothing pushed) when it does not match.
 */
export function splitSegment(matcher: SegmentMatcher, text: string, values: string[]): boolean {
  const match = matcher.regex.exec(text)
  if (match === null) return false
  const groups = matcher.groups
  for (let i = 0; i < groups.length; i++) values.push(match[groups[i]!]!)
  return true
}

function escape(text: string): string {
  return text.replace(SPECIAL, '\\$&')
}

/** Whether a requirement can sit inside the segment's pattern: no flag but `u`, and no anchor of its own (`^\\d+$`). */
function embeddable({ source, flags }: Requirement): boolean {
  return (flags === '' || flags === 'u') && !source.startsWith('^') && !/(?:^|[^\\])\$$/.test(source)
}

/** The capturing groups of a pattern: what an empty text matched against `pattern|` gives, less the match itself. */
function countGroups({ source, flags }: Requirement): number {
  return new RegExp(`${source}|`, flags).exec('')!.length - 1
}

function parseSegment(segment: string, label: string): PatternSegment {
  if (!segment.includes('{') && !segment.includes('}')) return { kind: 'static', text: segment }
  const literals: string[] = []
  const names: string[] = []
  const marks: string[] = []
  let at = 0
  for (const match of segment.matchAll(/\{([^{}]*)\}/g)) {
    literals.push(segment.slice(at, match.index))
    const name = NAME.exec(match[1]!)
    if (!name) throw new Error(`${label}: "{${match[1]}}" is not a parameter: a name is letters, digits and _, not starting with a digit, as {id}`)
    names.push(name[1]!)
    marks.push(name[2] ?? '')
    at = match.index + match[0].length
  }
  literals.push(segment.slice(at))
  const stray = literals.find((literal) => literal.includes('{') || literal.includes('}'))
  if (stray !== undefined) throw new Error(`${label}: unmatched brace in "${segment}"`)
  if (names.length === 1 && literals[0] === '' && literals[1] === '') {
    return marks[0] === '*' ? { kind: 'rest', name: names[0]! } : { kind: 'param', name: names[0]!, optional: marks[0] === '?' }
  }
  const marked = names.findIndex((_name, index) => marks[index] !== '')
  if (marked !== -1) {
    const what = marks[marked] === '?' ? `an optional parameter {${names[marked]}?}` : `a catch-all {${names[marked]}*}`
    throw new Error(`${label}: ${what} must be a whole path segment, not part of "${segment}"`)
  }
  for (let i = 1; i < names.length; i++) {
    if (literals[i] === '') {
      throw new Error(
        `${label}: {${names[i - 1]}}{${names[i]}} in "${segment}" has no text between the parameters, so where one ends is unknown; ` +
          `put a separator between them, as {${names[i - 1]}}-{${names[i]}}`,
      )
    }
  }
  return { kind: 'mixed', literals, names }
}

function checkNames(names: readonly string[], label: string): void {
  const seen = new Set<string>()
  for (const name of names) {
    if (seen.has(name)) throw new Error(`${label}: parameter {${name}} appears twice`)
    seen.add(name)
  }
}

/** A path pattern with the columns its bound parameters name taken out: `{post:slug}` becomes `{post}`. */
export interface KeyedPattern {
  /** The pattern the route matches and documents: `/posts/{post}`. */
  readonly pattern: string
  /** The column each parameter names, by parameter: `{ post: 'slug' }`; null when none names one. */
  readonly fields: Readonly<Record<string, string>> | null
}

const KEYED = /\{([A-Za-z_][A-Za-z0-9_]*):([^{}]*)\}/g
const FIELD = /^([A-Za-z_][A-Za-z0-9_]*)(\?)?$/

/**
 * Takes the columns out of a path pattern's parameters, as Laravel's `{post:slug}`: the route matches, lists and
 * documents `/posts/{post}`, and route model binding finds the post by its `slug` (see `RouteDefinition.bind`).
 * A column is letters, digits and `_`; an optional parameter keeps its `?` (`{post:slug?}`).
 *
 * @example
 * ```ts
 * keyedPattern('/users/{user}/posts/{post:slug}', 'Route "/users/{user}/posts/{post:slug}"')
 * // { pattern: '/users/{user}/posts/{post}', fields: { post: 'slug' } }
 * ```
 */
export function keyedPattern(path: string, label: string): KeyedPattern {
  if (!path.includes(':')) return { pattern: path, fields: null }
  const fields: Record<string, string> = {}
  const pattern = path.replace(KEYED, (_whole, name: string, field: string) => {
    const parts = FIELD.exec(field)
    if (!parts) throw new Error(`${label}: "{${name}:${field}}" names no column: a column is letters, digits and _, as {${name}:slug} (or {${name}:slug?})`)
    fields[name] = parts[1]!
    return `{${name}${parts[2] ?? ''}}`
  })
  return { pattern, fields: Object.keys(fields).length > 0 ? fields : null }
}
