import type { IncomingMessage } from 'node:http'
import { Readable } from 'node:stream'
import { Request } from '../http/Request.js'
import type { Response } from '../http/Response.js'
import type { Router } from '../routing/Router.js'
import { FileResponse } from '../static/FileResponse.js'
import { readFile } from 'node:fs/promises'

export interface TestRequestOptions {
  headers?: Record<string, string>
  /** Sent as `application/json`. */
  json?: unknown
  /** Sent as `application/x-www-form-urlencoded`. */
  form?: Record<string, string>
  /** Sent as it is. */
  body?: string | Buffer
}

/** What the application answered: status, headers and body, as `fetch` gives them. */
export interface TestResponse {
  readonly status: number
  readonly headers: Headers
  /** The body as text. */
  readonly text: string
  /** The body parsed as JSON. */
  json<T = any>(): T
  /** The Response the router returned, for what the fields above do not show. */
  readonly response: Response
}

/**
 * Requests an application in the same process, without a socket, as Laravel's `$this->get('/')` and Hono's
 * `app.request('/')` do: each goes through `Request.capture` and `router.dispatch` exactly as over HTTP.
 * Cookies the application sets are kept and sent back, as a browser would.
 *
 * @example
 * ```ts
 * const client = testClient(router)
 * const response = await client.post('/api/tasks', { title: 'Write tests' })
 * expect(response.status).toBe(201)
 * expect(response.json().task.title).toBe('Write tests')
 * ```
 */
export function testClient(router: Router): TestClient {
  return new TestClient(router)
}

export class TestClient {
  /** Cookies set by the application, sent with every later request. */
  readonly cookies = new Map<string, string>()

  constructor(private readonly router: Router) {}

  get(path: string, options?: TestRequestOptions): Promise<TestResponse> {
    return this.request('GET', path, options)
  }

  /** A POST with a JSON body: `client.post('/users', { name: 'Ada' })`. */
  post(path: string, json?: unknown, options: TestRequestOptions = {}): Promise<TestResponse> {
    return this.request('POST', path, json === undefined ? options : { ...options, json })
  }

  put(path: string, json?: unknown, options: TestRequestOptions = {}): Promise<TestResponse> {
    return this.request('PUT', path, json === undefined ? options : { ...options, json })
  }

  patch(path: string, json?: unknown, options: TestRequestOptions = {}): Promise<TestResponse> {
    return this.request('PATCH', path, json === undefined ? options : { ...options, json })
  }

  delete(path: string, options?: TestRequestOptions): Promise<TestResponse> {
    return this.request('DELETE', path, options)
  }

  /** Any method: `client.request('OPTIONS', '/users')`. */
  async request(method: string, path: string, options: TestRequestOptions = {}): Promise<TestResponse> {
    const headers: Record<string, string> = { host: 'localhost' }
    let body: Buffer | undefined
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json'
      body = Buffer.from(JSON.stringify(options.json))
    } else if (options.form !== undefined) {
      headers['content-type'] = 'application/x-www-form-urlencoded'
      body = Buffer.from(new URLSearchParams(options.form).toString())
    } else if (options.body !== undefined) {
      body = Buffer.from(options.body)
    }
    if (body !== undefined) headers['content-length'] = String(body.length)
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
    for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value

    const request = await Request.capture(incomingMessage(method.toUpperCase(), path, headers, body))
    const response = await this.router.dispatch(request)
    this.keepCookies(response)
    return answer(response, method.toUpperCase() === 'HEAD' ? '' : await bodyOf(response))
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

/** Node's IncomingMessage as the router reads it: method, URL, headers, a socket's address, and the body as a stream. */
function incomingMessage(method: string, url: string, headers: Record<string, string>, body: Buffer | undefined): IncomingMessage {
  const stream = Readable.from(body ? [body] : []) as Readable & Partial<IncomingMessage>
  Object.assign(stream, { method, url, headers, httpVersion: '1.1', socket: { remoteAddress: '127.0.0.1', encrypted: false } })
  return stream as IncomingMessage
}

async function bodyOf(response: Response): Promise<string> {
  if (!(response instanceof FileResponse)) return response.getContent()
  const bytes = await readFile(response.path)
  return (response.range ? bytes.subarray(response.range.start, response.range.end + 1) : bytes).toString('utf8')
}

function answer(response: Response, text: string): TestResponse {
  const headers = new Headers()
  for (const [name, value] of Object.entries(response.getHeaders())) headers.set(name, value)
  for (const cookie of response.getCookies()) headers.append('set-cookie', cookie)
  return {
    status: response.getStatusCode(),
    headers,
    text,
    json: () => JSON.parse(text),
    response,
  }
}
