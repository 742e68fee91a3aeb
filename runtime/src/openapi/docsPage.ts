import { existsSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { Response } from '../http/Response.js'
import type { Middleware } from '../http/Middleware.js'
import { FileResponse } from '../static/FileResponse.js'
import { OPENAPI_PATH } from './openApiPage.js'

/** Where the interactive reference is served; its files under `${DOCS_PATH}/assets/`. */
export const DOCS_PATH = '/docs'

const ASSETS = `${DOCS_PATH}/assets/`

/**
 * The page allows nothing but its own files and the document: no CDN, no inline script. Swagger UI sets `style`
 * attributes as it renders (hence `'unsafe-inline'` for styles only) and draws its icons from `data:` images.
 */
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

/** The files of Swagger UI the page loads, with their types; nothing else is served. */
const VENDOR: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  // Named by the page, so that the browser does not ask the app for /favicon.ico.
  'favicon-32x32.png': 'image/png',
}

/**
 * Where a file of Swagger UI is: in the package, dist/docs/, where the build copies it from swagger-ui-dist (this code
 * runs from dist/ or dist/cli/); in Fw's own checkout, running from src/, the devDependency itself.
 */
function vendorPath(name: string): string {
  for (const folder of ['docs/', '../docs/']) {
    const path = fileURLToPath(new URL(folder + name, import.meta.url))
    if (existsSync(path)) return path
  }
  return createRequire(import.meta.url).resolve(`swagger-ui-dist/${name}`)
}

/** Starts Swagger UI on the page's element, on the document; a file of its own because the CSP allows no inline script. */
const START = `window.ui = SwaggerUIBundle({ url: ${JSON.stringify(OPENAPI_PATH)}, dom_id: '#docs', deepLinking: true })\n`

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference</title>
<link rel="icon" type="image/png" href="${ASSETS}favicon-32x32.png">
<link rel="stylesheet" href="${ASSETS}swagger-ui.css">
</head>
<body>
<div id="docs"></div>
<script src="${ASSETS}swagger-ui-bundle.js"></script>
<script src="${ASSETS}start.js"></script>
</body>
</html>
`

/**
 * `GET /docs`: an interactive reference of the routes (Swagger UI) over `GET /openapi.json`, served with the same switch
 * (outside production; in production only with `OPENAPI=true`). Its script and style are Swagger UI's own files,
 * which fw-runtime's build copies into dist/docs/, served under `/docs/assets/`, never from a CDN: the page works
 * offline. A route of the
 * app at these paths wins, as the router puts this among its own pages.
 *
 * @example
 * ```ts
 * const pages = openApiEnabled() ? [openApiPage(() => router.getRoutes()), docsPage()] : []
 * ```
 */
export function docsPage(): Middleware {
  // Found on first request, not at startup: an app that never opens /docs never looks for them.
  const files = new Map<string, { path: string; size: number }>()
  const vendorFile = (name: string) => {
    let found = files.get(name)
    if (!found) {
      const path = vendorPath(name)
      found = { path, size: statSync(path).size }
      files.set(name, found)
    }
    return found
  }
  return (request, next) => {
    const method = request.method()
    if (method !== 'GET' && method !== 'HEAD') return next()
    const path = request.uri()
    if (path === DOCS_PATH) return Response.html(PAGE).setHeader('Content-Security-Policy', CSP)
    if (!path.startsWith(ASSETS)) return next()
    const name = path.slice(ASSETS.length)
    if (name === 'start.js') return new Response(START, 200, assetHeaders('text/javascript; charset=utf-8'))
    if (!Object.hasOwn(VENDOR, name)) return next()
    const { path: file, size } = vendorFile(name)
    return new FileResponse(file, size, 200, assetHeaders(VENDOR[name]!))
  }
}

function assetHeaders(type: string): Record<string, string> {
  return { 'Content-Type': type, 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' }
}
