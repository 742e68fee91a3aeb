/**
 * For tests and tools, not for an application's code: the seed's capture → dispatch → send as one
 * `node:http` listener, without a server.
 *
 * @example
 * ```ts
 * import { createRequestHandler } from 'fw-runtime/testing'
 * const server = createServer(createRequestHandler(router))
 * ```
 */
export { createRequestHandler, type RequestListener } from './server/createRequestHandler.js'
