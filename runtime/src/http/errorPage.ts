import { STATUS_CODES } from '../server/nodeHttp.js'
import { html, raw, type SafeHtml } from '../view/html.js'
import type { Request } from './Request.js'
import { PAGE_EXPIRED } from './Response.js'

/** What a person is told, by status; the message a handler gave is shown for other 4xx statuses. */
const EXPLANATIONS: Record<number, string> = {
  404: 'The page you are looking for does not exist.',
  405: 'This page cannot be reached that way.',
  419: 'The page expired. Go back, reload it, and try again.',
  429: 'Too many requests. Please wait a moment and try again.',
  500: 'Something went wrong on our side.',
  503: 'The service is unavailable right now. Please try again shortly.',
}

/** Request headers a debug page never shows: they carry credentials. */
const SECRET_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization', 'x-api-key', 'x-csrf-token'])

const STYLE = raw(`
  body { margin: 0; font: 16px/1.5 system-ui, sans-serif; color: #1f2328; background: #f6f8fa; }
  main { max-width: 46rem; margin: 12vh auto; padding: 0 1.5rem; }
  h1 { font-size: 1.25rem; margin: 0 0 .5rem; } h1 span { color: #8c959f; font-weight: 400; margin-right: .5rem; }
  pre { overflow-x: auto; background: #fff; border: 1px solid #d0d7de; border-radius: 6px; padding: 1rem; font-size: .8rem; }
  table { border-collapse: collapse; font-size: .85rem; } td { padding: .15rem .75rem .15rem 0; vertical-align: top; word-break: break-all; }
`)

function page(status: number, title: string, body: SafeHtml): string {
  return html`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${status} ${title}</title><style>${STYLE}</style></head>
<body><main>${body}</main></body>
</html>
`.toString()
}

/**
 * The HTML page a browser gets for an error status: the status, its reason phrase and a sentence for a person.
 * For a 4xx status other than those explained here, the handler's own message is shown (it was meant for the
 * client); a 5xx never shows more than the explanation.
 */
export function errorPage(status: number, message: string): string {
  const title = status === 419 ? PAGE_EXPIRED : (STATUS_CODES[status] ?? 'Error')
  const text = EXPLANATIONS[status] ?? (status < 500 ? message : EXPLANATIONS[500]!)
  return page(status, title, html`<h1><span>${status}</span>${title}</h1><p>${text}</p>`)
}

/**
 * The development page for an unexpected error (APP_DEBUG=true outside production): the message, the stack and
 * the request, with credential headers left out.
 */
export function debugPage(error: Error, request: Request): string {
  const headers = Object.entries(request.headers())
    .filter(([name]) => !SECRET_HEADERS.has(name))
    .map(([name, value]) => html`<tr><td>${name}</td><td>${Array.isArray(value) ? value.join(', ') : value}</td></tr>`)
  return page(
    500,
    error.name,
    html`<h1><span>500</span>${error.name}: ${error.message}</h1>
<p>${request.method()} ${request.url()}</p>
<pre>${error.stack ?? String(error)}</pre>
<h2>Request headers</h2><table>${headers}</table>`,
  )
}
