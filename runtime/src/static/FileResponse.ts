import { createReadStream } from 'node:fs'
import type { ServerResponse } from 'node:http'
import { Response } from '../http/Response.js'

/** A byte range of a file, both ends included, as `Range: bytes=start-end` names it. */
export interface ByteRange {
  start: number
  end: number
}

/**
 * A response whose body is a file on disk, streamed when sent rather than read into memory.
 * Headers, status and cookies behave as on any Response; `getContent()` is empty.
 *
 * @example
 * ```ts
 * return new FileResponse('/srv/app/public/logo.png', 200, { 'Content-Type': 'image/png' })
 * ```
 */
export class FileResponse extends Response {
  readonly path: string
  readonly range: ByteRange | undefined
  private readonly length: number

  constructor(path: string, size: number, statusCode = 200, headers: Record<string, string> = {}, range?: ByteRange) {
    super('', statusCode, headers)
    this.path = path
    this.range = range
    this.length = range ? range.end - range.start + 1 : size
  }

  override send(res: ServerResponse): void {
    const status = this.getStatusCode()
    const head: Record<string, string | string[]> = { ...this.getHeaders() }
    const cookies = this.getCookies()
    if (cookies.length > 0) head['Set-Cookie'] = [...cookies]
    if (status === 304 || res.req.method === 'HEAD') {
      if (status !== 304) head['Content-Length'] = String(this.length)
      res.writeHead(status, head)
      res.end()
      return
    }
    head['Content-Length'] = String(this.length)
    const stream = createReadStream(this.path, this.range)
    // A file that vanished or cannot be read between the check and the send: nothing is written yet, so
    // the client still gets an honest status; once bytes are out, the connection is cut instead.
    stream.once('error', () => {
      if (res.headersSent) res.destroy()
      else {
        res.writeHead(404, { 'Content-Type': 'application/json', 'Content-Length': '21' })
        res.end('{"error":"Not Found"}')
      }
    })
    stream.once('open', () => {
      res.writeHead(status, head)
      stream.pipe(res)
    })
    res.once('close', () => stream.destroy())
  }
}
