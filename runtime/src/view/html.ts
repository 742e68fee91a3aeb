const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** Text with every HTML-significant character escaped, safe inside elements and quoted attributes. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => ESCAPES[c]!)
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
  if (Array.isArray(value)) return value.map(render).join('')
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
