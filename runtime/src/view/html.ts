const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }
const SPECIAL = /[&<>"']/
const SPECIALS = /[&<>"']/g

/** Text with every HTML-significant character escaped, safe inside elements and quoted attributes. */
export function escapeHtml(value: unknown): string {
  const text = typeof value === 'string' ? value : String(value)
  // Most text has nothing to escape: one test finds that out faster than a replace with a callback (a third of
  // the time, on TechEmpower's fortunes).
  return SPECIAL.test(text) ? text.replace(SPECIALS, (c) => ESCAPES[c]!) : text
}

/** Markup that is already safe: the result of `html\`...\`` or of `raw(...)`. It is not escaped again. */
export class SafeHtml {
  readonly value: string
  constructor(value: string) {
    this.value = value
  }
  toString(): string {
    return this.value
  }
}

/** Marks trusted markup (never user input) as safe, so that `html` leaves it as it is. */
export function raw(markup: string): SafeHtml {
  return new SafeHtml(markup)
}

function render(value: unknown): string {
  if (value instanceof SafeHtml) return value.value
  if (value === null || value === undefined || value === false) return ''
  if (Array.isArray(value)) {
    let out = ''
    for (let i = 0; i < value.length; i++) out += render(value[i])
    return out
  }
  return escapeHtml(value)
}

/**
 * A tagged template for server-rendered pages: every interpolated value is escaped, arrays are joined,
 * null, undefined and false render nothing, and nested `html` results stay markup.
 *
 * @example
 * ```ts
 * const page = html`<ul>${users.map((user) => html`<li>${user.name}</li>`)}</ul>`
 * return Response.html(page.toString())
 * ```
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0]!
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]!
  return new SafeHtml(out)
}
