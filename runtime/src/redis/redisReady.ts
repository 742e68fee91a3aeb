import type { Redis } from 'ioredis'

/**
 * Waits until `client` is connected, at most its connect timeout: for the first command after start-up, which would
 * otherwise fail because the connection is still being made (Fw's clients have no offline queue). Resolves at once
 * when connected; rejects at once while the client is reconnecting, and when Redis did not answer in time.
 *
 * @example
 * ```ts
 * await redisReady(client)
 * ```
 */
export function redisReady(client: Redis): Promise<void> {
  if (client.status === 'ready') return Promise.resolve()
  if (client.status !== 'connecting' && client.status !== 'connect' && client.status !== 'wait') {
    return Promise.reject(new Error(`Redis is not connected (${client.status})`))
  }
  // Every call made while the client connects waits on one pair of listeners, however many calls there are.
  let pending = connecting.get(client)
  if (pending === undefined) {
    pending = untilReady(client).finally(() => connecting.delete(client))
    connecting.set(client, pending)
  }
  return pending
}

/** The wait of a client that is connecting, shared by the calls made meanwhile. */
const connecting = new WeakMap<Redis, Promise<void>>()

function untilReady(client: Redis): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => done(new Error(`Redis did not answer within ${client.options.connectTimeout} ms`)), client.options.connectTimeout)
    const onReady = () => done()
    const onClose = () => done(new Error('Redis closed the connection'))
    function done(error?: Error) {
      clearTimeout(timer)
      client.off('ready', onReady)
      client.off('close', onClose)
      if (error) reject(error)
      else resolve()
    }
    client.once('ready', onReady)
    client.once('close', onClose)
  })
}
