import type { IncomingMessage } from 'node:http'
import type { TLSSocket } from 'node:tls'
import type { StandardSchemaV1 } from '@standard-schema/spec'
import { authorize } from '../authorization/authorize.js'
import type { RouteContract } from '../routing/RouteContract.js'
import type { Session } from '../session/Session.js'
import { bodyToValidate } from './bodyToValidate.js'
import { HttpError } from './HttpError.js'
import { parseMultipart } from './parseMultipart.js'
import { responseOf } from './responseOf.js'
import { UploadFolder } from './UploadFolder.js'
import { prefersHtml } from './prefersHtml.js'
import { randomRequestId } from './randomRequestId.js'
import type { UploadedFile } from './UploadedFile.js'
import { validate } from './validate.js'

const EMPTY = Buffer.alloc(0)
const NO_FILES: Record<string, UploadedFile[]> = Object.freeze(Object.create(null))

/** An id a client or proxy sent that is safe to log and echo: short, no spaces, commas or control characters. */
const SAFE_ID = /^[A-Za-z0-9._:@-]{1,128}$/

/** 1 MiB: the default body limit, as in Laravel's and Express's defaults. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024

/**
 * 20 MiB: the default limit of a `multipart/form-data` body, as AdonisJS's `bodyparser.multipart.limit`. Its
 * files go to temporary files as they arrive, so this limit bounds the disk, not the memory.
 */
export const DEFAULT_UPLOAD_LIMIT = 20 * 1024 * 1024

export interface CaptureOptions {
  /**
   * The largest body, in bytes, that is read; past it the request is answered 413. Of a `multipart/form-data` body,
   * it bounds the text fields (held in memory), and `uploadLimit` the whole.
   */
  bodyLimit?: number
  /** The largest `multipart/form-data` body (files and fields), in bytes (default 20 MiB); past it, a 413. */
  uploadLimit?: number
}

export type Input = Record<string, unknown>

function isPlainObject(value: unknown): value is Input {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A query string with nothing to decode: printable ASCII without `%` or `+`. */
const PLAIN_QUERY = /^[!-$&-*,-~]*$/

/** `a=1&a=2&tags[]=x` → `{ a: ['1', '2'], tags: ['x'] }`: repeated keys and `[]` keys become arrays. */
function parseSearchParams(search: string): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = Object.create(null)
  if (PLAIN_QUERY.test(search)) {
    // Most query strings (`?page=2`, `?queries=20`) have nothing to decode: split them here, as URLSearchParams
    // would, without its object and iterator (a few µs a request).
    let start = 0
    while (start <= search.length) {
      let end = search.indexOf('&', start)
      if (end === -1) end = search.length
      if (end > start) {
        const equals = search.indexOf('=', start)
        const hasValue = equals !== -1 && equals < end
        add(result, search.slice(start, hasValue ? equals : end), hasValue ? search.slice(equals + 1, end) : '')
      }
      start = end + 1
    }
    return result
  }
  for (const [rawKey, value] of new URLSearchParams(search)) add(result, rawKey, value)
  return result
}

function add(result: Record<string, string | string[]>, rawKey: string, value: string): void {
  const isList = rawKey.endsWith('[]')
  const key = isList ? rawKey.slice(0, -2) : rawKey
  const existing = result[key]
  if (existing === undefined) result[key] = isList ? [value] : value
  else if (Array.isArray(existing)) existing.push(value)
  else result[key] = [existing, value]
}

/** A value by key or `a.b` path, from the object's own keys only: `constructor` or `toString` is never input. */
function lookup(source: unknown, path: string): unknown {
  if (!isPlainObject(source)) return undefined
  if (Object.hasOwn(source, path)) return source[path]
  if (!path.includes('.')) return undefined
  let current: unknown = source
  for (const part of path.split('.')) {
    if ((!isPlainObject(current) && !Array.isArray(current)) || !Object.hasOwn(current, part)) return undefined
    current = (current as Record<string, unknown>)[part]
  }
  return current
}

/** The output type of a contract's body or query schema; `unknown` when it declares none (a Request without a contract). */
export type DeclaredOutput<Contract, Part extends 'body' | 'query'> = Contract extends { readonly [Key in Part]: infer Schema extends StandardSchemaV1 }
  ? StandardSchemaV1.InferOutput<Schema>
  : unknown

/** What the router matched, as a request sees it (the router's RouteDefinition). */
export interface MatchedRoute {
  /** The pattern as registered, e.g. `/users/{id}`. */
  readonly pattern: string
  /** The host pattern of a domain route, e.g. `{account}.example.com`; undefined for the others. */
  readonly domain?: string | undefined
  /** The route's full name, e.g. `users.show`, if it has one. */
  readonly routeName: string | undefined
  /** What the route declared it takes and gives, if anything (`.body()`, `.query()`, `.contract()`). */
  readonly declared?: RouteContract | undefined
  /** `GET /users/{id}` */
  toString(): string
}

const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze(Object.create(null) as Record<string, string>)

/**
 * The path of a request target: origin-form as it is; absolute-form (`http://host/users/1`, which
 * RFC 9112 says a server MUST accept) without its scheme and authority. The fragment, which a client
 * should never send, is dropped, so that every server sees `/users/1` for `/users/1#frag`.
 */
function targetOf(url: string): string {
  let target = url
  if (url.charCodeAt(0) !== 47 /* / */ && /^https?:\/\//i.test(url)) {
    const pathAt = url.indexOf('/', url.indexOf('//') + 2)
    const queryAt = url.indexOf('?')
    target = pathAt === -1 || (queryAt !== -1 && queryAt < pathAt) ? `/${queryAt === -1 ? '' : url.slice(queryAt)}` : url.slice(pathAt)
  }
  const hashAt = target.indexOf('#')
  return hashAt === -1 ? target : target.slice(0, hashAt)
}

/**
 * The incoming HTTP request: method, path, headers, query and the parsed body.
 *
 * @example
 * ```ts
 * Route.post('/users', (request: Request) => {
 *   const name = request.input('name')
 *   const page = request.get('page', '1')
 *   return Response.json({ name, page, agent: request.header('user-agent') }, 201)
 * })
 * ```
 */
export class Request<Contract extends RouteContract = RouteContract> {
  /** Node's request object, for what the accessors do not cover. */
  readonly raw: IncomingMessage
  /** Route parameters by name, filled in by the router (an object without a prototype). */
  params: Record<string, string> = NO_PARAMS
  /** The route the router matched, set before any middleware runs. */
  matched: MatchedRoute | undefined = undefined
  /** The signed-in user, set by an authentication middleware. */
  user: unknown = undefined
  /** Set when the body could not be read (413, 400): the router answers with it before any handler runs. */
  bodyError: HttpError | null = null
  /** The models that route model binding loaded, by parameter name; null until one is bound. */
  private boundModels: Map<string, unknown> | null = null

  private currentSession: Session | undefined

  private readonly requestMethod: string
  private readonly path: string
  private readonly search: string
  private parsedQuery: Record<string, string | string[]> | undefined
  private rawBody: Buffer = EMPTY
  private parsedBody: unknown = undefined
  private uploadedFiles: Record<string, UploadedFile[]> = NO_FILES
  private uploadFolder: UploadFolder | undefined
  private parsedCookies: Record<string, string> | undefined
  private requestId: string | undefined = undefined

  constructor(raw: IncomingMessage) {
    this.raw = raw
    // Node's parser already gives the method in upper case; only a hand-built message may not.
    const method = raw.method ?? 'GET'
    this.requestMethod = method === 'GET' || method === 'POST' ? method : method.toUpperCase()
    const url = targetOf(raw.url ?? '/')
    const queryAt = url.indexOf('?')
    this.path = queryAt === -1 ? url : url.slice(0, queryAt)
    this.search = queryAt === -1 ? '' : url.slice(queryAt + 1)
  }

  /**
   * Builds a Request from Node's IncomingMessage, reading and parsing the body
   * (JSON and `+json`, form-urlencoded, text/plain; `multipart/form-data` as it arrives, its large files into
   * temporary files, within `uploadLimit`). Never throws: a body that is too large
   * or malformed is kept in `bodyError`, and `router.dispatch` answers 413 or 400.
   */
  static async capture(raw: IncomingMessage, options: CaptureOptions = {}): Promise<Request> {
    const request = new Request(raw)
    const length = raw.headers['content-length']
    if ((length !== undefined && length !== '0') || raw.headers['transfer-encoding'] !== undefined) {
      const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT
      if (request.isMultipart()) await request.readMultipart(options.uploadLimit ?? DEFAULT_UPLOAD_LIMIT, bodyLimit)
      else await request.readBody(bodyLimit)
    }
    return request
  }

  private isMultipart(): boolean {
    const type = this.raw.headers['content-type']
    return type !== undefined && type.split(';', 1)[0]!.trim().toLowerCase() === 'multipart/form-data'
  }

  /**
   * Parses a multipart body as it arrives (see `parseMultipart`): its large files go to a temporary folder, removed
   * when the response is done (sent, failed, or its client gone), or by `discardUploads()` where there is no server.
   */
  private async readMultipart(limit: number, fieldsLimit: number): Promise<void> {
    if (Number(this.raw.headers['content-length']) > limit) return new Promise((resolve) => this.drain(resolve))
    const folder = (this.uploadFolder = new UploadFolder())
    responseOf(this.raw)?.once('close', () => void folder.discard())
    const parsing = parseMultipart(this.raw, { uploadLimit: limit, fieldsLimit, folder })
    folder.hold(parsing)
    try {
      const { fields, files } = await parsing
      this.parsedBody = fields
      this.uploadedFiles = files
    } catch (error) {
      // What the client still sends is read and dropped before the answer, as for a 413 (see drain).
      const answer = error instanceof HttpError ? error : new HttpError(400, 'Malformed multipart body')
      return new Promise((resolve) => this.drain(resolve, answer))
    }
  }

  /**
   * Removes the temporary files of this request's uploads. The servers do it when the response is done; call it
   * where a request is answered without one of them (Fw's test client does). @internal
   */
  discardUploads(): Promise<void> {
    return this.uploadFolder?.discard() ?? Promise.resolve()
  }

  private readBody(limit: number): Promise<void> {
    // A body declared too large is read and thrown away like one that grows too large (see drain): answered at
    // once, without reading it, fetch(FormData) lost its 413 in 18 to 26 uploads of 30, http.request and curl -F now
    // and then, on both servers.
    if (Number(this.raw.headers['content-length']) > limit) return new Promise((resolve) => this.drain(resolve))
    return new Promise((resolve) => {
      const chunks: Buffer[] = []
      let size = 0
      const detach = () => this.raw.off('data', onData).off('end', onEnd).off('error', onError).off('close', onError)
      const finish = (error: HttpError | null) => {
        detach()
        if (error) {
          this.bodyError = error
          this.raw.pause()
        } else {
          this.rawBody = Buffer.concat(chunks, size)
          this.parseBody()
          resolve()
          return
        }
        resolve()
      }
      const onData = (chunk: Buffer) => {
        size += chunk.length
        if (size <= limit) {
          chunks.push(chunk)
          return
        }
        detach()
        chunks.length = 0
        this.drain(() => resolve())
      }
      const onEnd = () => finish(null)
      const onError = () => finish(new HttpError(400, 'Request body could not be read', { headers: { Connection: 'close' } }))
      this.raw.on('data', onData).on('end', onEnd).on('error', onError).on('close', onError)
    })
  }

  /**
   * Reads the rest of a body that is over the limit and throws it away, then answers 413 with
   * `Connection: close`, as express does through finalhandler. Closing the connection while the client is still
   * sending would reset it: the kernel sends a reset for bytes that arrive after the close, and a client that gets
   * it loses the 413 waiting in its buffer (EPIPE, ECONNRESET). Measured with 2 MiB uploads over the 1 MiB limit,
   * answering at once without `Connection: close` and letting Node drop the rest does not do: Node still closes at
   * once for a client that sent `Connection: close` (http.request without an agent still lost one in 30). Node answers
   * `Expect: 100-continue` itself, so curl -F sends its body too. The server's request timeout (60 s) bounds how
   * long a client may take to send what it declared.
   */
  private drain(done: () => void, error = new HttpError(413, 'Payload Too Large', { headers: { Connection: 'close' } })): void {
    this.bodyError = error
    const raw = this.raw
    if (raw.readableEnded || raw.destroyed) {
      done()
      return
    }
    const finish = () => {
      raw.off('end', finish).off('error', finish).off('close', finish)
      done()
    }
    // Flowing with no 'data' listener: what arrives is read and dropped.
    raw.on('end', finish).on('error', finish).on('close', finish)
    raw.resume()
  }

  private parseBody(): void {
    const contentType = this.raw.headers['content-type'] ?? ''
    const type = contentType.split(';', 1)[0]!.trim().toLowerCase()
    if (type === 'application/json' || type.endsWith('+json')) {
      const text = this.rawBody.toString('utf8')
      if (text.trim() === '') return
      try {
        this.parsedBody = JSON.parse(text)
      } catch {
        this.bodyError = new HttpError(400, 'Invalid JSON body')
      }
    } else if (type === 'application/x-www-form-urlencoded') {
      this.parsedBody = parseSearchParams(this.rawBody.toString('utf8'))
    }
  }

  /** All input: the query merged with the body's fields (the body wins on a clash). */
  all(): Input {
    const body = this.parsedBody
    const input: Input = Object.assign(Object.create(null), this.query())
    return isPlainObject(body) ? Object.assign(input, body) : input
  }

  /**
   * One input value by name, from the body first, then the query; `user.name` reaches into objects.
   * Returns the default (undefined when not given) when absent.
   */
  input<T = unknown>(name: string, defaultValue?: T): T {
    const fromBody = lookup(this.parsedBody, name)
    if (fromBody !== undefined) return fromBody as T
    const query = this.query()
    const fromQuery = Object.hasOwn(query, name) ? query[name] : undefined
    return (fromQuery !== undefined ? fromQuery : defaultValue) as T
  }

  /**
   * The input (query and body, as `all()` gives it) checked by any Standard Schema validator (zod 4, valibot,
   * arktype, …), typed as the schema's output. Invalid input throws a ValidationError: a 422 with
   * `{"error": "The given data was invalid.", "errors": {"title": ["…"]}}`. A body that is not an object
   * (`[null,null]`, `42`, `null`; none at all on a route that declares `.body()`) is refused with
   * `errors: { input: ['The body must be a JSON object.'] }`, never read as `{}`; a schema of an array or a
   * primitive (`z.array(…)`) validates such a body itself.
   *
   * @example
   * ```ts
   * const task = await request.validate(z.object({ title: z.string().default('Untitled') }))
   * ```
   */
  validate<Schema extends StandardSchemaV1>(schema: Schema): Promise<StandardSchemaV1.InferOutput<Schema>>
  /**
   * The body (by default) or the query checked by the schema the route declared with `.body(…)` or `.query(…)`.
   * Typed by the contract given as the Request's type argument (`Request<typeof storeTask>`, where `storeTask` is a
   * `defineContract(…)` the route takes with `.contract(storeTask)`), else by the type you give, else `unknown`.
   * The body is validated as it came: one that is not an object (or none at all) is a 422 when the schema takes
   * objects. A route that declared no such schema throws a TypeError that says so.
   *
   * @example
   * ```ts
   * export const storeTask = defineContract({ body: z.object({ title: z.string() }), query: z.object({ draft: z.stringbool().optional() }) })
   * Route.post('/tasks', [TaskController, 'store']).contract(storeTask)
   * // in TaskController:
   * async store(request: Request<typeof storeTask>) {
   *   const { title } = await request.validate()        // { title: string }
   *   const { draft } = await request.validate('query') // { draft?: boolean }
   * }
   * ```
   */
  validate<Output = DeclaredOutput<Contract, 'body'>>(part?: 'body'): Promise<Output>
  validate<Output = DeclaredOutput<Contract, 'query'>>(part: 'query'): Promise<Output>
  validate(schemaOrPart: StandardSchemaV1 | 'body' | 'query' = 'body'): Promise<unknown> {
    if (typeof schemaOrPart !== 'string') {
      // A JSON body that is not an object, or a route's declared body left out, is the body's to judge, not the query's.
      if (isPlainObject(this.parsedBody) || !this.sentBody()) return validate(schemaOrPart, this.all())
      return this.validateBody(schemaOrPart)
    }
    const schema = this.matched?.declared?.[schemaOrPart]
    if (schema === undefined) {
      const route = this.matched ? `the route ${this.matched}` : 'a request outside a route'
      const call = schemaOrPart === 'body' ? 'validate()' : "validate('query')"
      return Promise.reject(new TypeError(`request.${call} needs the route's ${schemaOrPart} schema, and ${route} declares none: add .${schemaOrPart}(schema) to the route, or pass one: request.validate(schema)`))
    }
    return schemaOrPart === 'body' ? this.validateBody(schema) : validate(schema, { ...this.query() })
  }

  private validateBody(schema: StandardSchemaV1): Promise<unknown> {
    try {
      return validate(schema, bodyToValidate(schema, this.parsedBody))
    } catch (error) {
      return Promise.reject(error)
    }
  }

  /** Whether the request carries a body for a body contract: one was parsed, it says JSON, or its route declares one. */
  private sentBody(): boolean {
    if (this.parsedBody !== undefined || this.matched?.declared?.body !== undefined) return true
    const type = (this.header('content-type') ?? '').split(';', 1)[0]!.trim().toLowerCase()
    return type === 'application/json' || type.endsWith('+json')
  }

  /** Whether every named key is present in the input. */
  has(...names: string[]): boolean {
    return names.every((name) => this.input(name) !== undefined)
  }

  /** Only the named input keys that are present. */
  only(...names: string[]): Input {
    const result: Input = {}
    for (const name of names) {
      const value = this.input(name)
      if (value !== undefined) result[name] = value
    }
    return result
  }

  /** A query-string value by key, or the default (null unless given) when absent. */
  get(key: string, defaultValue: string | null = null): string | null {
    const query = this.query()
    const value = Object.hasOwn(query, key) ? query[key] : undefined
    if (value === undefined) return defaultValue
    return Array.isArray(value) ? (value[value.length - 1] ?? defaultValue) : value
  }

  /**
   * The whole parsed query string; given a key, one value of it by the rule of `get()` (as Laravel's
   * `$request->query('page')`): the last value of a repeated key, else the default (null unless given).
   *
   * @example
   * ```ts
   * // GET /posts?page=2&tags[]=news&tags[]=tech
   * request.query()            // { page: '2', tags: ['news', 'tech'] }
   * request.query('page')      // '2'
   * request.query('sort', 'id') // 'id'
   * ```
   */
  query(): Record<string, string | string[]>
  query(key: string, defaultValue: string): string
  query(key: string, defaultValue?: string | null): string | null
  query(key?: string, defaultValue: string | null = null): Record<string, string | string[]> | string | null {
    if (key !== undefined) return this.get(key, defaultValue)
    this.parsedQuery ??= this.search === '' ? Object.create(null) : parseSearchParams(this.search)
    return this.parsedQuery!
  }

  /**
   * This request's id, as Rails' `request.request_id`: the `X-Request-Id` a client or proxy sent when it is safe
   * to log and echo (1 to 128 letters, digits and `._:@-`), else a new UUID, made on first use and the same
   * ever after. The router sends it back in `X-Request-Id` and puts it in its log lines of the request, so that a
   * line of the application's own can carry it too.
   *
   * @example
   * ```ts
   * logger.info('payment refused', { requestId: request.id(), order: order.id })
   * ```
   */
  id(): string {
    if (this.requestId === undefined) {
      const sent = this.raw.headers['x-request-id']
      this.requestId = typeof sent === 'string' && SAFE_ID.test(sent) ? sent : randomRequestId()
    }
    return this.requestId
  }

  /** The HTTP method in upper case, e.g. `POST`. */
  method(): string {
    return this.requestMethod
  }

  /** The path without the query string, e.g. `/api/data`. */
  uri(): string {
    return this.path
  }

  /** The path and query as sent, e.g. `/api/posts?page=2`. */
  url(): string {
    return this.raw.url ?? '/'
  }

  /** A request header by name, ignoring case; null (or the default) when absent. */
  header(name: string, defaultValue: string | null = null): string | null {
    const value = this.raw.headers[name.toLowerCase()]
    if (value === undefined) return defaultValue
    return Array.isArray(value) ? value.join(', ') : value
  }

  /** All request headers, with lower-case names. */
  headers(): IncomingMessage['headers'] {
    return this.raw.headers
  }

  /**
   * The host the client asked for: the `Host` header without its port and a final dot, in lower case
   * (`Acme.Example.com:8000` gives `acme.example.com`, `[::1]:8000` gives `[::1]`); '' when there is none. Domain
   * routes match on it. `X-Forwarded-Host` is not read: Fw trusts no proxy header for the host.
   */
  host(): string {
    const header = this.raw.headers.host
    if (header === undefined) return ''
    const close = header.lastIndexOf(']')
    const colon = header.indexOf(':', close + 1)
    const host = colon === -1 ? header : header.slice(0, colon)
    return (host.endsWith('.') ? host.slice(0, -1) : host).toLowerCase()
  }

  /** A route parameter by name: for `/users/{id}`, `request.param('id')`. */
  param(name: string): string | undefined {
    return Object.hasOwn(this.params, name) ? this.params[name] : undefined
  }

  /**
   * The model that route model binding loaded for a parameter (`.bind('post', Post)`), for middleware such as
   * `can:update,post`; undefined when the parameter is not bound.
   *
   * @example
   * ```ts
   * const post = request.model<Post>('post')
   * ```
   */
  model<T = unknown>(parameter: string): T | undefined {
    return this.boundModels?.get(parameter) as T | undefined
  }

  /**
   * Throws an HttpError 403 (with the policy's reason) unless this request's user may: see `authorize` of
   * `fw-runtime/authorization`. A row that the route bound picks its model's policy.
   *
   * @example
   * ```ts
   * await request.authorize('update', request.model<PostRow>('post'))
   * ```
   */
  authorize(ability: string, ...args: unknown[]): Promise<void> {
    return authorize(this, ability, ...args)
  }

  /** Route model binding hands over the model it loaded for a parameter. @internal */
  bindModel(parameter: string, model: unknown): void {
    ;(this.boundModels ??= new Map()).set(parameter, model)
  }

  /**
   * The route that matched this request (its `pattern`, its `routeName`), for middleware, logs and
   * metrics; undefined when none did (a 404).
   *
   * @example
   * ```ts
   * const timing: Middleware = async (request, next) => {
   *   const response = await next()
   *   metrics.observe(request.route()?.routeName ?? 'unmatched')
   *   return response
   * }
   * ```
   */
  route(): MatchedRoute | undefined {
    return this.matched
  }

  /** The parsed body: an object for JSON and forms, undefined for an empty or unparsed body. */
  body(): unknown {
    return this.parsedBody
  }

  /** The body as text (UTF-8), as received (empty for a multipart body: it is parsed as it arrives, never kept). */
  content(): string {
    return this.rawBody.toString('utf8')
  }

  /** The body's bytes as received: for binary uploads and signatures over the exact body (empty for a multipart one). */
  buffer(): Buffer {
    return this.rawBody
  }

  /**
   * A file of a `multipart/form-data` body by field name (the first, when several share it), or undefined.
   *
   * @example
   * ```ts
   * const photo = request.file('photo')
   * if (photo) await photo.moveTo(`storage/photos/${randomUUID()}.jpg`)
   * ```
   */
  file(name: string): UploadedFile | undefined {
    return this.uploadedFiles[name]?.[0]
  }

  /** Every uploaded file, by field name. */
  files(): Record<string, UploadedFile[]> {
    return this.uploadedFiles
  }

  /** A cookie sent by the browser, URL-decoded. */
  cookie(name: string): string | undefined {
    if (this.parsedCookies === undefined) {
      this.parsedCookies = Object.create(null) as Record<string, string>
      for (const pair of (this.raw.headers.cookie ?? '').split(';')) {
        const at = pair.indexOf('=')
        if (at === -1) continue
        const key = pair.slice(0, at).trim()
        if (key === '' || key in this.parsedCookies) continue
        try {
          this.parsedCookies[key] = decodeURIComponent(pair.slice(at + 1).trim())
        } catch {
          this.parsedCookies[key] = pair.slice(at + 1).trim()
        }
      }
    }
    return this.parsedCookies[name]
  }

  /** The client's address. */
  ip(): string {
    return this.raw.socket.remoteAddress ?? ''
  }

  /** Whether the request came over TLS (directly, or through a proxy that says so). */
  secure(): boolean {
    return (this.raw.socket as TLSSocket).encrypted === true || this.header('x-forwarded-proto') === 'https'
  }

  /**
   * The visitor's session, on routes that run the `session` middleware.
   *
   * @example
   * ```ts
   * request.session.flash('status', 'Profile saved')
   * ```
   */
  get session(): Session {
    if (!this.currentSession) {
      throw new Error(`request.session needs the session middleware on this route: add .middleware('session') (${this.requestMethod} ${this.path})`)
    }
    return this.currentSession
  }

  set session(session: Session) {
    this.currentSession = session
  }

  /** Whether the `session` middleware gave this request a session. */
  hasSession(): boolean {
    return this.currentSession !== undefined
  }

  /** The session's CSRF token, for a form's hidden `_token` field (needs the `session` middleware). */
  csrfToken(): string {
    return this.session.token()
  }

  /**
   * Whether to answer with JSON rather than a page or a redirect: yes for every client but a browser asking for a
   * page, that is, unless the `Accept` header names `text/html` and prefers it to JSON (see `prefersHtml`). curl,
   * fetch and generated clients (`*\/*` or no `Accept`) get JSON, as do `X-Requested-With: XMLHttpRequest` calls.
   * Fw's 401 or redirect to sign in, its error pages and `verified` choose by it.
   *
   * @example
   * ```ts
   * return request.expectsJson() ? Response.json({ saved: true }) : Response.redirect('/settings', 303)
   * ```
   */
  expectsJson(): boolean {
    return !prefersHtml(this.header('accept')) || this.header('x-requested-with') === 'XMLHttpRequest'
  }
}
