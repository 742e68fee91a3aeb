import type { Router } from '../routing/Router.js'
import { sendUnexpectedError, type GuardedListener, type RequestListener } from './createRequestHandler.js'
import { CONNECTIONS_CHECKING_INTERVAL, listen, toListener, type RunningServer, type ServeOptions } from './listen.js'
import { createServer, polka } from './nodeHttp.js'

/**
 * Serves a router (or a request listener) on polka.
 *
 * @example
 * ```ts
 * const { url } = await serve(router, { port: 8000 })
 * console.log(`Listening on ${url}`)
 * ```
 */
export function serve(target: Router | RequestListener, options: ServeOptions = {}): Promise<RunningServer> {
  const listener = toListener(target, options)
  const server = createServer({ connectionsCheckingInterval: CONNECTIONS_CHECKING_INTERVAL })
  // polka is the HTTP layer; Fw's router does the matching. Given as polka's onNoMatch (and no polka routes
  // or middleware), the listener gets every request without polka scanning a route table first. Being guarded,
  // it returns nothing: polka's async loop would spend two more turns adopting a promise.
  const app = polka({ server, onNoMatch: listener, onError: (error, _req, res) => sendUnexpectedError(error, res) })
  return listen(server, app.handler as GuardedListener, options)
}
