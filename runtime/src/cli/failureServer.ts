import { readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { isAbsolute, join } from 'node:path'
import { errorPage } from '../http/errorPage.js'
import { prefersHtml } from '../http/prefersHtml.js'
import { html, raw } from '../view/html.js'
import type { AppFailure } from './appFailure.js'

/** Lines of the file shown above and below the error's line. */
const CONTEXT = 3
/** The end of the app's output shown on the page. */
const OUTPUT_LINES = 40

const STYLE = raw(`
  body { margin: 0; font: 16px/1.5 system-ui, sans-serif; color: #1f2328; background: #f6f8fa; }
  main { max-width: 60rem; margin: 8vh auto; padding: 0 1.5rem; }
  h1 { font-size: 1.25rem; margin: 0 0 .5rem; word-break: break-word; } h1 span { color: #8c959f; font-weight: 400; margin-right: .5rem; }
  .where { font: .95rem ui-monospace, monospace; color: #cf222e; }
  pre { overflow-x: auto; background: #fff; border: 1px solid #d0d7de; border-radius: 6px; padding: 1rem; font-size: .8rem; }
`)

/** Where the error is: `routes/web.ts:3:10`, or nothing when the output named no file. */
export function failurePlace(failure: AppFailure): string | undefined {
  if (failure.file === undefined) return undefined
  return `${failure.file}:${failure.line}${failure.column === undefined ? '' : `:${failure.column}`}`
}

/** The lines of the file around the error, the error's line marked and a caret under its column. */
function codeFrame(failure: AppFailure, root: string): string | undefined {
  if (failure.file === undefined || failure.line === undefined) return undefined
  let lines: string[]
  try {
    lines = readFileSync(isAbsolute(failure.file) ? failure.file : join(root, failure.file), 'utf8').split(/\r?\n/)
  } catch {
    return undefined
  }
  const first = Math.max(1, failure.line - CONTEXT)
  const last = Math.min(lines.length, failure.line + CONTEXT)
  const width = String(last).length
  const frame: string[] = []
  for (let number = first; number <= last; number++) {
    const marked = number === failure.line
    frame.push(`${marked ? '>' : ' '} ${String(number).padStart(width)} | ${lines[number - 1]}`)
    if (marked && failure.column !== undefined) frame.push(`  ${' '.repeat(width)} | ${' '.repeat(Math.max(0, failure.column - 1))}^`)
  }
  return frame.join('\n')
}

/** The development page: the error, where it is, the code there, and the end of the app's output. */
function failurePage(failure: AppFailure, root: string): string {
  const where = failurePlace(failure)
  const frame = codeFrame(failure, root)
  const output = failure.output.trimEnd().split('\n').slice(-OUTPUT_LINES).join('\n')
  return html`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>500 ${failure.message}</title><style>${STYLE}</style></head>
<body><main>
<h1><span>500</span>${failure.message}</h1>
${where === undefined ? '' : html`<p class="where">${where}</p>`}
${frame === undefined ? '' : html`<pre class="frame">${frame}</pre>`}
<p>The app did not start. Fix the file and save it: <code>fw serve</code> restarts the app, and reloading this page shows it.</p>
<h2>Output</h2>
<pre>${output}</pre>
</main></body>
</html>
`.toString()
}

/**
 * The answer to every request while the app under `fw serve` cannot run: 500 with the error, the file, line and
 * column (as Vite's and Laravel's error overlays show a syntax error), an HTML page for a browser (an `Accept`
 * that prefers HTML to JSON: `prefersHtml`) and `{"error": …}` for anyone else. With `debug` off (`APP_DEBUG=false`, or
 * production) it says no more than the app's own 500 would.
 */
export function failureAnswer(failure: AppFailure, root: string, debug: boolean): (req: IncomingMessage, res: ServerResponse) => void {
  const where = failurePlace(failure)
  const json = debug
    ? JSON.stringify({
        error: where === undefined ? failure.message : `${failure.message} (${where})`,
        ...(failure.file === undefined ? {} : { file: failure.file, line: failure.line, column: failure.column }),
      })
    : JSON.stringify({ error: 'Internal Server Error' })
  const page = debug ? failurePage(failure, root) : errorPage(500, 'Internal Server Error')
  return (req, res) => {
    const wantsPage = prefersHtml(req.headers.accept)
    req.resume()
    res.writeHead(500, {
      'Content-Type': wantsPage ? 'text/html; charset=utf-8' : 'application/json; charset=utf-8',
      'Cache-Control': 'no-store',
      // No connection outlives the page: the app, once fixed, listens on this port again.
      Connection: 'close',
    })
    res.end(wantsPage ? page : json)
  }
}

/**
 * Listens on the app's port with `failureAnswer`, until `close`; undefined (and a line on stderr) when the port
 * cannot be had.
 */
export async function serveFailure(
  failure: AppFailure,
  options: { root: string; host: string; port: number; debug: boolean },
): Promise<Server | undefined> {
  const server = createServer(failureAnswer(failure, options.root, options.debug))
  return new Promise((resolve) => {
    server.once('error', (error) => {
      console.error(`Could not answer with the error page on ${options.host}:${options.port}: ${error.message}`)
      resolve(undefined)
    })
    server.listen(options.port, options.host, () => resolve(server))
  })
}

/** Stops the error page's server, its open connections too, so that the app can listen on the port at once. */
export function closeFailureServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve())
    server.closeAllConnections()
  })
}
