import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { Server as NetServer, type AddressInfo, type Socket } from 'node:net'
import { linkResponse } from '../http/responseOf.js'
import type { Router } from '../routing/Router.js'
import { createRequestHandler, guardListener, type GuardedListener, type RequestListener } from './createRequestHandler.js'

export interface ServeOptions {
  /** Defaults to `PORT` from the environment, else 8000; 0 picks a free port. */
  port?: number
  /** Defaults to 127.0.0.1; `0.0.0.0` listens on every interface. */
  host?: string
  /** Largest request body in bytes (default 1 MiB). */
  bodyLimit?: number
  /** Largest `multipart/form-data` body in bytes (default 20 MiB): see `CaptureOptions.uploadLimit`. */
  uploadLimit?: number
  /** Stop gracefully and exit 0 on SIGTERM and SIGINT (default true). */
  handleSignals?: boolean
  /** Milliseconds a client has to send the request headers (default 20 s). */
  headersTimeout?: number
  /** Milliseconds a client has to send the whole request (default 60 s). */
  requestTimeout?: number
  /** Milliseconds an idle keep-alive connection stays open (default 5 s). */
  keepAliveTimeout?: number
  /** Milliseconds that requests in flight get to finish on shutdown before connections are cut (default 10 s). */
  shutdownTimeout?: number
  /**
   * Milliseconds an idle keep-alive connection is kept open once shutdown starts (default 1 s), so that a request
   * a client is sending on it at that moment is answered (with `Connection: close`) instead of reset.
   */
  idleGrace?: number
}

/** How often Node looks for connections past the header or request timeout (its own default is 30 s). */
export const CONNECTIONS_CHECKING_INTERVAL = 1_000

/** A server that is listening. */
export interface RunningServer {
  readonly server: Server
  readonly host: string
  readonly port: number
  /** `http://127.0.0.1:8000` */
  readonly url: string
  /** Stops accepting connections, lets requests in flight finish, then resolves. */
  close(): Promise<void>
}

/** Thrown when the port is taken, with a message fit to print as it is. */
export class PortInUseError extends Error {
  readonly code = 'EADDRINUSE'
  constructor(host: string, port: number) {
    super(`Port ${port} is already in use on ${host}; stop the other server or choose another port with --port`)
    this.name = 'PortInUseError'
  }
}

/** The app's listener, guarded: it never throws or rejects, so the servers need no guard of their own. */
export function toListener(target: Router | RequestListener, options: ServeOptions): GuardedListener {
  return guardListener(typeof target === 'function' ? target : createRequestHandler(target, { bodyLimit: options.bodyLimit, uploadLimit: options.uploadLimit }))
}

/**
 * Sets the server's timeouts, listens, and wires graceful shutdown. Shared by `serve` and `serveNode`.
 * The listener must not throw (see `toListener`).
 */
export function listen(server: Server, listener: GuardedListener, options: ServeOptions): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1'
  const port = options.port ?? (Number(process.env.PORT) || 8000)
  server.headersTimeout = options.headersTimeout ?? 20_000
  server.requestTimeout = options.requestTimeout ?? 60_000
  server.keepAliveTimeout = options.keepAliveTimeout ?? 5_000

  // Counted per connection, not per request: shutdown needs the responses still in flight on each.
  const connections = new Set<Socket>()
  server.on('connection', (socket: Socket) => {
    connections.add(socket)
    socket.once('close', () => connections.delete(socket))
  })

  let closing: Promise<void> | undefined
  const answer = answerInBatches(listener)
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    // While draining, every answer tells the client not to reuse the connection; Node ends it after the response.
    if (closing) res.setHeader('Connection', 'close')
    // So that a request's temporary upload files go when its response closes (see Request.readMultipart).
    linkResponse(req, res)
    answer(req, res)
  })

  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      for (const socket of connections) closeAfterResponse(socket)
      const force = setTimeout(() => server.closeAllConnections(), options.shutdownTimeout ?? 10_000)
      const idle = setTimeout(() => server.closeIdleConnections(), options.idleGrace ?? 1_000)
      force.unref()
      idle.unref()
      // http's close() would also drop idle keep-alive connections at once, resetting a request that a client is
      // sending on one at that very moment. Stop listening only; idle connections close after the grace above.
      NetServer.prototype.close.call(server, () => {
        clearTimeout(force)
        clearTimeout(idle)
        resolve()
      })
    })
    return closing
  }

  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      reject(error.code === 'EADDRINUSE' ? new PortInUseError(host, port) : error)
    }
    server.once('error', onError)
    server.listen(port, host, () => {
      server.off('error', onError)
      const address = server.address() as AddressInfo
      const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address
      const running: RunningServer = {
        server,
        host: address.address,
        port: address.port,
        url: `http://${shownHost}:${address.port}`,
        close,
      }
      if (options.handleSignals ?? true) {
        const onSignal = () => {
          void close().then(() => process.exit(0))
        }
        process.once('SIGTERM', onSignal).once('SIGINT', onSignal)
        server.once('close', () => process.off('SIGTERM', onSignal).off('SIGINT', onSignal))
      }
      resolve(running)
    })
  })
}

/**
 * Answers requests in the check phase that follows the poll phase that read them, all of them in one
 * `setImmediate`, in the order they arrived. Answered inside the parser's callback, a request costs about a
 * quarter more CPU. Given a `setImmediate` each (as polka's own listen() does), every request pays its own run
 * of the microtask queue and of the `process.nextTick` queue (where Node writes a response), for the awaits of
 * `public/index.ts`. In one batch, the requests read together share one run: under load, on one core beside a
 * `setImmediate` per request, the api starter answers about 1.38 times the requests on `/users/:id`.
 */
function answerInBatches(listener: GuardedListener): GuardedListener {
  let batch: [IncomingMessage, ServerResponse][] = []
  const answerBatch = () => {
    const requests = batch
    batch = []
    for (const [req, res] of requests) listener(req, res)
  }
  return (req, res) => {
    if (batch.push([req, res]) === 1) setImmediate(answerBatch)
  }
}

/**
 * Marks the response in flight on a connection (if its headers are not sent yet) with `Connection: close`,
 * so that the client opens no further request on a connection that is about to end.
 */
function closeAfterResponse(socket: Socket): void {
  // `_httpMessage` is the response a socket is writing: Node's own closeIdleConnections() reads it too.
  const response = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage
  if (response && !response.headersSent) response.setHeader('Connection', 'close')
}
