import type { IncomingMessage, ServerResponse } from 'node:http'
import { Request, type CaptureOptions } from '../http/Request.js'
import type { Router } from '../routing/Router.js'

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>

/**
 * The seed's flow for one request, shared by every server: capture → dispatch → send.
 * `dispatch` never throws; a failure past it (a broken socket) is logged, and the client gets a 500
 * if nothing was sent yet.
 */
export function createRequestHandler(router: Router, options: CaptureOptions = {}): RequestListener {
  return async (req, res) => {
    const request = await Request.capture(req, options)
    const response = await router.dispatch(request)
    response.send(res)
  }
}

/** A listener that never throws or rejects. */
export type GuardedListener = (req: IncomingMessage, res: ServerResponse) => void

/** Wraps a listener so that a rejection never goes unhandled and never leaves a client hanging. */
export function guardListener(listener: RequestListener): GuardedListener {
  return (req, res) => {
    let result: void | Promise<void>
    try {
      result = listener(req, res)
    } catch (error) {
      sendUnexpectedError(error, res)
      return
    }
    if (result instanceof Promise) result.catch((error: unknown) => sendUnexpectedError(error, res))
  }
}

/** Logs an error that escaped the router and answers 500 unless a response is already on its way. */
export function sendUnexpectedError(error: unknown, res: ServerResponse): void {
  console.error('[fw] request failed outside the router:', error)
  if (res.headersSent) {
    res.destroy()
    return
  }
  const body = '{"error":"Internal Server Error"}'
  res.writeHead(500, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) })
  res.end(body)
}
