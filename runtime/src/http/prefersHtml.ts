/**
 * Whether an `Accept` header asks for an HTML page rather than JSON, as a browser's navigation does
 * (`text/html,application/xhtml+xml,…,*\/*;q=0.8`): it names `text/html` (or `application/xhtml+xml`) with a
 * quality above 0, and JSON's quality is lower; on a tie HTML wins only when JSON is covered by a wildcard alone
 * (`text/html, *\/*`). Anything else is a client that gets JSON: no header, `*\/*` (curl, fetch, generated
 * clients), `application/json`, `application/json, text/html`. Fw decides every JSON-or-page answer by it (the
 * error pages, `auth`'s 401 or redirect, `verified`, `guest`), through `request.expectsJson()`.
 *
 * @example
 * ```ts
 * prefersHtml('text/html,application/xhtml+xml,application/xml;q=0.9,*\/*;q=0.8') // true
 * prefersHtml('*\/*')                                                             // false
 * prefersHtml('application/json, text/html')                                      // false
 * ```
 */
export function prefersHtml(accept: string | null | undefined): boolean {
  const ranges = accept?.toLowerCase()
  if (!ranges || !ranges.includes('html')) return false
  // The best quality of a range that names HTML; of one that names JSON (`application/json`, a `+json` type); and of a
  // wildcard that covers JSON (`application/*`, `*/*`); -1 for none.
  let html = -1
  let json = -1
  let jsonCovered = -1
  for (const range of ranges.split(',')) {
    const [mediaType = '', ...parameters] = range.split(';')
    const type = mediaType.trim()
    const quality = qualityOf(parameters)
    if (type === 'text/html' || type === 'application/xhtml+xml') html = Math.max(html, quality)
    else if (type === 'application/json' || type.endsWith('+json')) json = Math.max(json, quality)
    else if (type === '*/*' || type === 'application/*') jsonCovered = Math.max(jsonCovered, quality)
  }
  if (html <= 0) return false
  // The most specific range that matches a type gives its quality (RFC 9110, 12.5.1).
  const jsonQuality = json >= 0 ? json : jsonCovered
  return html > jsonQuality || (html === jsonQuality && json < 0)
}

/** The `q` parameter of a media range: 1 when absent, 0 when it is not a number. */
function qualityOf(parameters: string[]): number {
  for (const parameter of parameters) {
    const [name, value] = parameter.split('=')
    if (name?.trim() === 'q') {
      const quality = Number(value?.trim())
      return Number.isFinite(quality) ? Math.min(Math.max(quality, 0), 1) : 0
    }
  }
  return 1
}
