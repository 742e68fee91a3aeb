import { IncomingMessage } from 'node:http'
import { Socket } from 'node:net'
import { Request } from '../../src/http/Request.js'

/**
 * A Request for a method and target, built in process as Node's parser would build its message, without a socket
 * or a body: for what the accessors and the router make of a path and a query.
 *
 * @example
 * ```ts
 * requestFor('/list?page=2').query('page') // '2'
 * ```
 */
export function requestFor(url: string, method = 'GET'): Request {
  const message = new IncomingMessage(new Socket())
  message.method = method
  message.url = url
  return new Request(message)
}
