import { HttpError } from '../http/HttpError.js'
import type { Middleware } from '../http/Middleware.js'
import type { Response } from '../http/Response.js'
import { UrlSigner } from '../routing/UrlSigner.js'
import { contentType } from '../static/contentType.js'
import { FileResponse } from '../static/FileResponse.js'
import { DISPOSITION, LocalDisk } from './LocalDisk.js'
import { storage } from './storage.js'

/**
 * Serves the links of the local disk's `signedUrl()`: a GET or HEAD of `/storage/<key>?expires=…&signature=…` gets
 * the file, public or private, streamed from disk, while the signature holds and the link has not expired (403
 * otherwise, 404 when the file is gone). The router puts it after the public folder, for paths no route takes; any
 * other request goes on untouched.
 *
 * @example
 * ```ts
 * const link = await storage().signedUrl('invoices/42.pdf', { expiresIn: 600 }) // opened by a browser: the PDF
 * ```
 */
export function signedLocalFiles(): Middleware {
  let signer: UrlSigner | undefined
  return async (request, next) => {
    const method = request.method()
    if ((method !== 'GET' && method !== 'HEAD') || !request.url().includes('signature=')) return next()
    const disk = storage.disk('local')
    const path = request.uri()
    if (!(disk instanceof LocalDisk) || !path.startsWith(`${disk.urlPath}/`)) return next()
    signer ??= UrlSigner.fromEnvironment()
    const check = signer.verify(request.url())
    if (check === 'expired') throw new HttpError(403, 'This link has expired.')
    if (check === 'invalid') throw new HttpError(403, 'Invalid signature.')
    // The key is what was signed, so it is one that signedUrl() made: no need to guard it again beyond the disk's own check.
    const key = path.slice(disk.urlPath.length + 1).split('/').map(decodeURIComponent).join('/')
    const file = await disk.file(key)
    const disposition = new URL(request.url(), 'http://fw.invalid').searchParams.get(DISPOSITION)
    const response: Response = new FileResponse(file.path, file.size, 200, {
      'Content-Type': contentType(key),
      'Cache-Control': 'private, max-age=0',
      'X-Content-Type-Options': 'nosniff',
    })
    return disposition === null ? response : response.setHeader('Content-Disposition', disposition)
  }
}
