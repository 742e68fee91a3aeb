import type { Router } from '../routing/Router.js'
import type { RequestListener } from './createRequestHandler.js'
import { PortInUseError, type RunningServer, type ServeOptions } from './listen.js'
import { serve } from './serve.js'
import { serveNode } from './serveNode.js'

/**
 * Starts an application's server the way `fw serve`, `fw serve:node` and `npm start` expect:
 * port from `PORT` (default 8000), host from `HOST` (default 127.0.0.1), polka unless `FW_SERVER=node`.
 * Prints the URL; a port in use is one line on stderr and exit code 1.
 *
 * @example
 * ```ts
 * await start(router)
 * ```
 */
export async function start(target: Router | RequestListener, options: ServeOptions = {}): Promise<RunningServer> {
  const port = options.port ?? (process.env.PORT ? Number(process.env.PORT) : 8000)
  const host = options.host ?? process.env.HOST ?? '127.0.0.1'
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`Invalid port "${process.env.PORT}": use a whole number from 0 to 65535`)
    process.exit(1)
  }
  const useNode = process.env.FW_SERVER === 'node'
  try {
    const running = await (useNode ? serveNode : serve)(target, { ...options, port, host })
    console.log(`Fw ${useNode ? '(node:http) ' : ''}listening on ${running.url}`)
    return running
  } catch (error) {
    if (error instanceof PortInUseError) {
      console.error(error.message)
      process.exit(1)
    }
    throw error
  }
}
