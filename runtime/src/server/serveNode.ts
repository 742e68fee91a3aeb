import type { Router } from '../routing/Router.js'
import type { RequestListener } from './createRequestHandler.js'
import { CONNECTIONS_CHECKING_INTERVAL, listen, toListener, type RunningServer, type ServeOptions } from './listen.js'
import { createServer } from './nodeHttp.js'

/**
 * Serves a router on the plain `node:http` server, with no polka in between
 * (the seed's "legacy" server, `fw serve:node`).
 */
export function serveNode(target: Router | RequestListener, options: ServeOptions = {}): Promise<RunningServer> {
  return listen(createServer({ connectionsCheckingInterval: CONNECTIONS_CHECKING_INTERVAL }), toListener(target, options), options)
}
