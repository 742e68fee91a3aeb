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

/**
 * Splits a segment's text by a mixed segment's literals and pushes the parameters' values; false (nothing pushed)
 * when it does not match. The rule, as Laravel's for `{name}.{ext}`: the text before the first parameter and after
 * the last one must be there exactly; every parameter takes at least one character; a parameter followed by text
 * ends where that text first occurs, and the last one takes what is left. So `{name}.{ext}` splits `archive.tar.gz`
 * into `archive` and `tar.gz`, and `{name}-v{version}` splits `my-lib-v2` into `my-lib` and `2`. Taking the first
 * occurrence each time finds a split whenever one exists; `where` constraints are checked on the split found.
 */
export function splitSegment(literals: readonly string[], text: string, values: string[]): boolean {
  const last = literals.length - 1
  const prefix = literals[0]!
  const suffix = literals[last]!
  if (!text.startsWith(prefix) || !text.endsWith(suffix)) return false
  const end = text.length - suffix.length
  const mark = values.length
  let at = prefix.length
  for (let i = 1; i < last; i++) {
    const literal = literals[i]!
    const found = text.indexOf(literal, at + 1)
    // The literal must leave at least one character for the parameter after it, before the suffix.
    if (found === -1 || found + literal.length >= end) {
      values.length = mark
      return false
    }
    values.push(text.slice(at, found))
    at = found + literal.length
  }
  if (end - at < 1) {
    values.length = mark
    return false
  }
  values.push(text.slice(at, end))
  return true
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
