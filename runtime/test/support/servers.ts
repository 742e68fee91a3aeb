import type { Router } from '../../src/routing/Router.js'
import type { RunningServer, ServeOptions } from '../../src/server/listen.js'
import { serve } from '../../src/server/serve.js'
import { serveNode } from '../../src/server/serveNode.js'

/**
 * Both servers, so that one table of HTTP cases runs against each:
 * `describe.each(servers)('$name', ({ start }) => { ... })`.
 */
export const servers = [
  { name: 'serve (polka)', start: serve },
  { name: 'serveNode (node:http)', start: serveNode },
] as const

export type StartServer = (router: Router, options?: ServeOptions) => Promise<RunningServer>

/** Starts a server on a free port of 127.0.0.1 that leaves the process's signals alone. */
export function listenOn(start: StartServer, router: Router, options: ServeOptions = {}): Promise<RunningServer> {
  return start(router, { port: 0, host: '127.0.0.1', handleSignals: false, ...options })
}

/** A response body parsed as JSON, typed loosely for assertions. */
export async function readJson(res: globalThis.Response): Promise<any> {
  return res.json()
}
