import type { IncomingMessage, ServerResponse } from 'node:http'

const RESPONSE = Symbol('fw.response')

type Linked = IncomingMessage & { [RESPONSE]?: ServerResponse }

/**
 * Gives a request its response, as Fw's servers do for every request (Node links a response to its request, not
 * the other way): what a request leaves behind, such as the temporary files of its uploads, goes when its response
 * closes.
 *
 * @example
 * ```ts
 * server.on('request', (req, res) => linkResponse(req, res))
 * ```
 */
export function linkResponse(req: IncomingMessage, res: ServerResponse): void {
  ;(req as Linked)[RESPONSE] = res
}

/** The response `linkResponse` gave a request; undefined outside Fw's servers. */
export function responseOf(req: IncomingMessage): ServerResponse | undefined {
  return (req as Linked)[RESPONSE]
}
