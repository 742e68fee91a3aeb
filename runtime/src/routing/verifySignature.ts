import { HttpError } from '../http/HttpError.js'
import { documented } from '../http/middlewareDocs.js'
import type { Middleware } from './RouteDefinition.js'
import { UrlSigner } from './UrlSigner.js'

/**
 * The `signed` middleware: lets through only a request whose path and query carry a valid, unexpired signature of
 * `router.signedUrl()`; any other answers 403 (`Invalid signature.`, or `This link has expired.`). The link's host
 * is not part of what is signed: links are built on `APP_URL`, and checked on their path and query.
 */
export function verifySignature(): Middleware {
  let signer: UrlSigner | undefined
  return documented((request, next) => {
    signer ??= UrlSigner.fromEnvironment()
    const check = signer.verify(request.url())
    if (check === 'expired') throw new HttpError(403, 'This link has expired.')
    if (check === 'invalid') throw new HttpError(403, 'Invalid signature.')
    return next()
  }, { responses: { 403: { description: 'The link is not signed, its signature is invalid, or it has expired' } } })
}
