import { readFile } from 'node:fs/promises'
import type { IncomingMessage } from 'node:http'
import { Readable } from 'node:stream'
import { issueToken } from '../auth/accessTokens.js'
import { SESSION_KEY } from '../auth/sessionAuth.js'
import { transaction } from '../database/db.js'
import { Request, type CaptureOptions } from '../http/Request.js'
import type { Response } from '../http/Response.js'
import type { Router } from '../routing/Router.js'
import { Encrypter } from '../session/Encrypter.js'
import { Session } from '../session/Session.js'
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


/** How `actingAs` signs a user in: as a browser (the session cookie) or as an API client (a bearer token). */
export type ActingVia = 'session' | 'token'

export class TestClient {
  /** Cookies set by the application, sent with every later request that sets no Cookie header of its own. */
  readonly cookies = new Map<string, string>()
  /** The `Authorization` header `actingAs(user, 'token')` sends, on requests that set none of their own. */
  private authorization: string | undefined
  /** The sign-in `actingAs` started: the next request waits for it. */
  private signingIn: Promise<void> | undefined

  /** `options.bodyLimit`, `options.uploadLimit`: the largest bodies read, as the server's options of those names. */
  constructor(
    private readonly router: Router,
    private readonly options: CaptureOptions = {},
  ) {}

  /**
   * Signs `user` in for every later request, without a password, as Laravel's `actingAs`: a real session token of
   * fw-runtime/auth in the encrypted session cookie (`fw_session`, as a browser that signed in holds it), or with
   * `'token'`, a real API token sent as `Authorization: Bearer`. The session signs in on every route behind the `auth`
   * middleware, pages and JSON routes alike; the token is for what reads the bearer itself (signing a token out) and
   * for testing as an API client. Needs `APP_KEY` (for the cookie) and the `access_tokens` table of `fw make:auth`.
   *
   * @example
   * ```ts
   * const ada = await User.create({ name: 'Ada', email: 'ada@example.com', password_hash: 'unused' })
   * const response = await client.actingAs(ada).get('/me')
   * await client.actingAs(ada, 'token').post('/logout')
   * ```
   */
  // `id?: unknown`: a model's row is typed loosely until database/schema.d.ts knows its table; the id is checked here.
  actingAs(user: { readonly id?: unknown }, via: ActingVia = 'session'): this {
    const { id } = user
    if (typeof id !== 'number' || !Number.isSafeInteger(id)) {
      throw new TypeError(`actingAs(user) signs in a user of the users table by its numeric id; this one's id is ${String(id)}`)
    }
    // A transaction of its own, begun now on the database of now: the sign-in's queries are not the next request's,
    // and `expectQueries` around that request does not count them.
    this.signingIn = transaction(() => this.signIn(id, via)).catch((error: unknown) => {
      throw new Error(`actingAs could not sign in user ${id}: ${error instanceof Error ? error.message : String(error)}`, { cause: error })
    })
    return this
  }

  private async signIn(userId: number, via: ActingVia): Promise<void> {
    if (via === 'token') {
      this.authorization = `Bearer ${(await issueToken(userId, 'api')).token}`
      return
    }
    const { token } = await issueToken(userId, 'session')
    const lifetimeMs = (Number(process.env.SESSION_LIFETIME) || 120) * 60_000
    const session = new Session(undefined, lifetimeMs).put(SESSION_KEY, token)
    this.cookies.set('fw_session', Encrypter.fromEnvironment('fw-session').seal(JSON.stringify(session.close(lifetimeMs))))
  }

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
    if (this.signingIn) await this.signingIn
    // A standard Request does what fetch would with the body (JSON text, a form, FormData with its boundary).
    const url = new URL(path, 'http://localhost')
    const web = new globalThis.Request(url, init)
    // An absolute URL names the host, for domain routes: client.get('http://acme.example.com/users').
    const headers: Record<string, string> = { host: url.host }
    web.headers.forEach((value, name) => {
      headers[name] = value
    })
    if (headers.authorization === undefined && this.authorization !== undefined) headers.authorization = this.authorization
    if (headers.cookie === undefined && this.cookies.size > 0) {
      headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
    }
    const body = web.body ? Buffer.from(await web.arrayBuffer()) : undefined
    if (body !== undefined) headers['content-length'] = String(body.length)

    const request = await Request.capture(incomingMessage(web.method, path, headers, body), this.options)
    const response = await this.router.dispatch(request)
    this.keepCookies(response)
    // As a server does once the response is sent: the temporary files of the request's uploads go.
    return toWebResponse(response, web.method === 'HEAD').finally(() => request.discardUploads())
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
