import { readFile } from 'node:fs/promises'
import type { IncomingMessage } from 'node:http'
import { Readable } from 'node:stream'
import { Request, type CaptureOptions } from '../http/Request.js'
import type { Response } from '../http/Response.js'
import type { Router } from '../routing/Router.js'
import { FileResponse } from '../static/FileResponse.js'

/**
 * Requests an application in the same process, without a socket, as Laravel's `$this->get('/')` and Hono's
 * `app.request('/')` do: each request goes through `Request.capture` and `router.dispatch` exactly as over HTTP,
 * and comes back as a standard `Response`, as `fetch` gives it. Cookies the application sets are kept and sent
 * back, as a browser would.
 *
 * @example
 * ```ts
 * const client = testClient(router)
 * const response = await client.post('/api/tasks', { title: 'Write tests' })
 * expect(response.status).toBe(201)
 * expect((await response.json()).task.title).toBe('Write tests')
 * ```
 */
export function testClient(router: Router, options: CaptureOptions = {}): TestClient {
  return new TestClient(router, options)
}

/** A standard `Response`, with `json()` typed loosely for assertions: `(await response.json()).task.title`. */
export type TestResponse = Omit<globalThis.Response, 'json'> & { json<T = any>(): Promise<T> }


export class TestClient {
  /** Cookies set by the application, sent with every later request that sets no Cookie header of its own. */
  readonly cookies = new Map<string, string>()

  /** `options.bodyLimit`: the largest body read, as the server's option of that name (default 1 MiB). */
  constructor(
    private readonly router: Router,
    private readonly options: CaptureOptions = {},
  ) {}

  get(path: string, init: RequestInit = {}): Promise<TestResponse> {
    return this.fetch(path, { ...init, method: 'GET' })
  }

  /** A POST, with a JSON body when one is given: `client.post('/users', { name: 'Ada' })`. */
  post(path: string, json?: unknown, init: RequestInit = {}): Promise<TestResponse> {
    return this.fetch(path, withJson({ ...init, method: 'POST' }, json))
  }

  put(path: string, json?: unknown, init: RequestInit = {}): Promise<TestResponse> {
    return this.fetch(path, withJson({ ...init, method: 'PUT' }, json))
  }

  patch(path: string, json?: unknown, init: RequestInit = {}): Promise<TestResponse> {
    return this.fetch(path, withJson({ ...init, method: 'PATCH' }, json))
  }

  delete(path: string, init: RequestInit = {}): Promise<TestResponse> {
    return this.fetch(path, { ...init, method: 'DELETE' })
  }

  /**
   * Any request, as `fetch` takes it, with a path instead of a URL: `client.fetch('/upload', { method: 'POST', body: form })`.
   * The path reaches the router as written (nothing is normalized or re-encoded). The Host is `localhost`, or the host
   * of an absolute URL, for domain routes: `client.get('http://acme.example.com/users')`.
   */
  async fetch(path: string, init: RequestInit = {}): Promise<TestResponse> {
    // A standard Request does what fetch would with the body (JSON text, a form, FormData with its boundary).
    const url = new URL(path, 'http://localhost')
    const web = new globalThis.Request(url, init)
    // An absolute URL names the host, for domain routes: client.get('http://acme.example.com/users').
    const headers: Record<string, string> = { host: url.host }
    web.headers.forEach((value, name) => {
      headers[name] = value
    })
    if (headers.cookie === undefined && this.cookies.size > 0) {
      headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
    }
    const body = web.body ? Buffer.from(await web.arrayBuffer()) : undefined
    if (body !== undefined) headers['content-length'] = String(body.length)

    const request = await Request.capture(incomingMessage(web.method, path, headers, body), this.options)
    const response = await this.router.dispatch(request)
    this.keepCookies(response)
    return toWebResponse(response, web.method === 'HEAD')
  }

  private keepCookies(response: Response): void {
    for (const cookie of response.getCookies()) {
      const [pair = ''] = cookie.split(';')
      const at = pair.indexOf('=')
      const name = pair.slice(0, at)
      if (/;\s*Max-Age=0(;|$)/i.test(cookie)) this.cookies.delete(name)
      else this.cookies.set(name, pair.slice(at + 1))
    }
  }
}

function withJson(init: RequestInit, json: unknown): RequestInit {
  if (json === undefined) return init
  return { ...init, body: JSON.stringify(json), headers: { 'Content-Type': 'application/json', ...init.headers } }
}

/** Node's IncomingMessage as the router reads it: method, URL, headers, a socket's address, and the body as a stream. */
function incomingMessage(method: string, url: string, headers: Record<string, string>, body: Buffer | undefined): IncomingMessage {
  const stream = Readable.from(body ? [body] : []) as Readable & Partial<IncomingMessage>
  Object.assign(stream, { method, url, headers, httpVersion: '1.1', socket: { remoteAddress: '127.0.0.1', encrypted: false } })
  return stream as IncomingMessage
}

const NULL_BODY = new Set([101, 103, 204, 205, 304])

async function toWebResponse(response: Response, head: boolean): Promise<TestResponse> {
  const headers = new Headers()
  for (const [name, value] of Object.entries(response.getHeaders())) headers.set(name, value)
  for (const cookie of response.getCookies()) headers.append('set-cookie', cookie)
  const status = response.getStatusCode()
  const body = head || NULL_BODY.has(status) ? null : await bodyOf(response)
  return new globalThis.Response(body, { status, headers }) as TestResponse
}

async function bodyOf(response: Response): Promise<string | Buffer> {
  if (!(response instanceof FileResponse)) return response.getContent()
  const bytes = await readFile(response.path)
  return response.range ? bytes.subarray(response.range.start, response.range.end + 1) : bytes
}
