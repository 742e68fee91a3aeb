import type { Stats } from 'node:fs'
import { realpath, stat } from 'node:fs/promises'
import { join, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { appRoot } from '../config/appRoot.js'
import type { Request } from '../http/Request.js'
import { Response } from '../http/Response.js'
import type { Middleware } from '../http/Middleware.js'
import { contentType } from './contentType.js'
import { FileResponse, type ByteRange } from './FileResponse.js'

export interface StaticOptions {
  /** `Cache-Control` of every file (default `public, max-age=0`: the browser keeps it and revalidates by ETag). */
  cacheControl?: string
  /** The file served for a folder's path (default `index.html`); false serves none. */
  index?: string | false
}

/** TypeScript sources never leave the server, even though `public/index.ts` sits in the served folder. */
const SOURCE = /\.(ts|mts|cts|tsx)$/i

/**
 * Serves the files of a folder, the application's `public/`: `public/css/app.css` answers
 * `GET /css/app.css` with its Content-Type, an ETag and Last-Modified (a matching `If-None-Match` or
 * `If-Modified-Since` gets 304), `Cache-Control`, and one byte range on request (206, or 416 when it
 * lies outside the file). Dotfiles, TypeScript sources and anything outside the folder (`..`, encoded
 * or not, and symlinks that lead out, but for one into `storage/app/public` beside it, which `fw storage:link`
 * makes) are never served: such a path goes on to the routes, as does every path with no file and every method
 * but GET and HEAD.
 *
 * The folder defaults to the application's `public/` (found from its root, so a built app started from
 * `dist/` serves the same files).
 *
 * @example
 * ```ts
 * router.use(serveStatic())
 * ```
 */
export function serveStatic(root: string | URL = join(appRoot(), 'public'), options: StaticOptions = {}): Middleware {
  const folder = resolve(root instanceof URL ? fileURLToPath(root) : root)
  const cacheControl = options.cacheControl ?? 'public, max-age=0'
  const index = options.index ?? 'index.html'
  // The folder's real path, found on first use: it may not exist yet when the app starts.
  let realFolder: Promise<string | undefined> | undefined
  // The local disk's public files (storage/app/public beside the folder), which `fw storage:link` links in as
  // public/storage: a link into it is followed, as one that stays inside the folder is.
  let realStorage: Promise<string | undefined> | undefined

  async function find(path: string): Promise<{ file: string; stats: Stats } | undefined> {
    const segments = safeSegments(path)
    if (!segments) return undefined
    const inside = (await (realFolder ??= realpath(folder).catch(() => undefined)))
    if (!inside) return undefined
    const roots = [inside, await (realStorage ??= realpath(join(folder, '../storage/app/public')).catch(() => undefined))]
    let file = join(folder, ...segments)
    let stats = await statInside(file, roots)
    if (stats?.isDirectory() && index) {
      file = join(file, index)
      stats = await statInside(file, roots)
    }
    return stats?.isFile() ? { file, stats } : undefined
  }

  return async (request, next) => {
    const method = request.method()
    if (method !== 'GET' && method !== 'HEAD') return next()
    const found = await find(request.uri())
    return found ? answer(request, found.file, found.stats, cacheControl) : next()
  }
}

/** The decoded segments of a URL path, or undefined for any path that could reach a file it must not. */
function safeSegments(path: string): string[] | undefined {
  const segments: string[] = []
  for (const raw of path.split('/')) {
    if (raw === '') continue
    let segment: string
    try {
      segment = decodeURIComponent(raw)
    } catch {
      return undefined
    }
    // `.` and `..` start with a dot too; a decoded `%2F`, `%5C` or NUL would reach past its segment.
    if (segment.startsWith('.') || /[/\\\0]/.test(segment)) return undefined
    segments.push(segment)
  }
  const last = segments.at(-1)
  return last !== undefined && SOURCE.test(last) ? undefined : segments
}

/** The file's stats when its real path (symlinks followed) lies inside one of the folders; else undefined. */
async function statInside(file: string, folders: readonly (string | undefined)[]): Promise<Stats | undefined> {
  try {
    const real = await realpath(file)
    if (!folders.some((folder) => folder !== undefined && (real === folder || real.startsWith(folder + sep)))) return undefined
    return await stat(real)
  } catch {
    return undefined
  }
}

function answer(request: Request, file: string, stats: Stats, cacheControl: string): Response {
  const etag = `W/"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}"`
  const lastModified = stats.mtime.toUTCString()
  const headers = {
    'Content-Type': contentType(file),
    ETag: etag,
    'Last-Modified': lastModified,
    'Cache-Control': cacheControl,
    'Accept-Ranges': 'bytes',
    'X-Content-Type-Options': 'nosniff',
  }
  if (notModified(request, etag, stats.mtime)) return new FileResponse(file, stats.size, 304, headers)

  const range = request.header('range')
  const ifRange = request.header('if-range')
  if (range === null || (ifRange !== null && ifRange !== etag && ifRange !== lastModified)) {
    return new FileResponse(file, stats.size, 200, headers)
  }
  const wanted = parseRange(range, stats.size)
  if (wanted === 'unsatisfiable') {
    return new Response('', 416, { 'Content-Range': `bytes */${stats.size}`, ETag: etag })
  }
  if (!wanted) return new FileResponse(file, stats.size, 200, headers)
  const partial = { ...headers, 'Content-Range': `bytes ${wanted.start}-${wanted.end}/${stats.size}` }
  return new FileResponse(file, stats.size, 206, partial, wanted)
}

function notModified(request: Request, etag: string, modified: Date): boolean {
  const ifNoneMatch = request.header('if-none-match')
  // If-None-Match wins over If-Modified-Since when both are sent (RFC 9110 §13.1.3); weak comparison.
  if (ifNoneMatch !== null) {
    return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag.slice(2))
  }
  const since = Date.parse(request.header('if-modified-since') ?? '')
  return !Number.isNaN(since) && Math.floor(modified.getTime() / 1000) <= Math.floor(since / 1000)
}

/**
 * One byte range of `bytes=a-b`, `bytes=a-` or `bytes=-n`; undefined for a header this does not take
 * (several ranges, another unit, a malformed one), which answers with the whole file as RFC 9110 allows.
 */
function parseRange(header: string, size: number): ByteRange | 'unsatisfiable' | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim())
  if (!match || (match[1] === '' && match[2] === '')) return undefined
  let start: number
  let end: number
  if (match[1] === '') {
    const suffix = Number(match[2])
    if (suffix === 0) return 'unsatisfiable'
    start = Math.max(0, size - suffix)
    end = size - 1
  } else {
    start = Number(match[1])
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1)
    if (match[2] !== '' && Number(match[2]) < start) return undefined
  }
  return start >= size || start > end ? 'unsatisfiable' : { start, end }
}
