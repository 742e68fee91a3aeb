import type { ServerResponse } from 'node:http'

/** A header value must never carry a line break: that would let it split into a second header. */
const LINE_BREAK = /[\r\n]/
/** RFC 9110 token characters: what a header or cookie name may contain. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

interface Header {
  readonly name: string
  /** The name in lower case, for lookups that ignore case as HTTP does. */
  readonly key: string
  readonly value: string
}

/** A header list checked once here and shared by every response made with it: a frozen array of one Content-Type. */
function sharedContentType(value: string): readonly Header[] {
  return Object.freeze([Object.freeze({ name: 'Content-Type', key: 'content-type', value })])
}

/**
 * The header lists of every `Response.json`, `Response.html` and `Response.text`, shared by those responses:
 * most responses never touch their headers. One that sets a header gets its own list holding the same entries
 * (see `ownHeaders`), not a copy of a map.
 */
const JSON_HEADERS = sharedContentType('application/json')
const HTML_HEADERS = sharedContentType('text/html; charset=utf-8')
const TEXT_HEADERS = sharedContentType('text/plain; charset=utf-8')
const NO_HEADERS: readonly Header[] = Object.freeze([])

const NO_COOKIES: readonly string[] = []

/** The reason phrase of 419, Laravel's status for an expired page (a CSRF token mismatch): Node has none for it. */
export const PAGE_EXPIRED = 'Page Expired'

export type ResponseContent = string | number | boolean | null | undefined | object

export interface CookieOptions {
  /** Lifetime in seconds; 0 or a negative number expires the cookie at once. */
  maxAge?: number
  expires?: Date
  path?: string
  domain?: string
  /** Defaults to true: scripts cannot read the cookie. */
  httpOnly?: boolean
  secure?: boolean
  /** Defaults to `Lax`. */
  sameSite?: 'Strict' | 'Lax' | 'None'
}

function assertHeader(key: unknown, value: unknown): asserts key is string {
  if (typeof key !== 'string' || !TOKEN.test(key)) {
    throw new TypeError(`Invalid header name: ${JSON.stringify(key)}`)
  }
  if (typeof value !== 'string') {
    throw new TypeError(`Header "${key}" must be a string, got ${value === null ? 'null' : typeof value}`)
  }
  if (LINE_BREAK.test(value)) {
    throw new TypeError(`Header "${key}" must not contain CR or LF characters`)
  }
}

function contentToString(content: ResponseContent): string {
  if (typeof content === 'string') return content
  if (content === null || content === undefined) return ''
  if (typeof content === 'object') return JSON.stringify(content)
  return String(content)
}

/** Headers as the flat `[name, value, …]` list that writeHead takes. */
function headList(headers: readonly Header[]): (string | string[])[] {
  if (headers.length === 1) return [headers[0]!.name, headers[0]!.value]
  const head: (string | string[])[] = []
  for (let i = 0; i < headers.length; i++) head.push(headers[i]!.name, headers[i]!.value)
  return head
}

function indexOf(headers: readonly Header[], key: string): number {
  for (let i = 0; i < headers.length; i++) if (headers[i]!.key === key) return i
  return -1
}

/** RFC 5987 encoding for a non-ASCII download file name. */
function encodeFilename(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_')
  const utf8 = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
  return ascii === filename ? `attachment; filename="${ascii}"` : `attachment; filename="${ascii}"; filename*=UTF-8''${utf8}`
}

/**
 * An HTTP response: content, status code and headers, sent with `send(res)`.
 *
 * @example
 * ```ts
 * return Response.json({ user }, 201).setHeader('X-Request-ID', id)
 * ```
 */
export class Response {
  protected content: string
  protected statusCode: number
  /** The headers in the order set; a few, so a scan finds one faster than a map would. */
  private headers: readonly Header[]
  private cookies: string[] | null = null
  /**
   * The value `Response.json` was given, while the content is still its JSON (undefined otherwise): a route that
   * declares the response's schema with `.returns()` shapes its answer from it without reading the JSON back.
   * @internal
   */
  jsonValue: unknown = undefined

  constructor(content: ResponseContent = '', statusCode = 200, headers?: Record<string, string>) {
    this.content = contentToString(content)
    this.statusCode = statusCode
    this.headers = NO_HEADERS
    if (headers) for (const key of Object.keys(headers)) this.setHeader(key, headers[key]!)
  }

  /**
   * A JSON response. Unicode and slashes are left as they are (JSON.stringify never escapes them).
   *
   * @example
   * ```ts
   * Response.json({ message: 'Hello' })
   * ```
   */
  static json(data: unknown, statusCode = 200): Response {
    const response = new Response(JSON.stringify(data) ?? 'null', statusCode).withShared(JSON_HEADERS)
    response.jsonValue = data
    return response
  }

  /** A JSON response of JSON already written (a declared response's shape, see `.returns()`). @internal */
  static serializedJson(json: string, statusCode = 200): Response {
    return new Response(json, statusCode).withShared(JSON_HEADERS)
  }

  /** An HTML response: `Response.html('<h1>Hi</h1>')`. */
  static html(html: string, statusCode = 200): Response {
    return new Response(html, statusCode).withShared(HTML_HEADERS)
  }

  /** A plain-text response; `Response.text('', 204)` is the seed's empty 204. */
  static text(text: string, statusCode = 200): Response {
    return new Response(text, statusCode).withShared(TEXT_HEADERS)
  }

  /** The seed's error body: `Response.error('Task not found', 404)` sends `{"error":"Task not found"}`. */
  static error(message: string, statusCode = 500): Response {
    return Response.json({ error: message }, statusCode)
  }

  /** A redirect: `Response.redirect('/login')` (302) or `Response.redirect('/new', 301)`. */
  static redirect(url: string, statusCode = 302): Response {
    return new Response('', statusCode, { Location: url })
  }

  /**
   * A file download: the content with `Content-Disposition: attachment`.
   *
   * @example
   * ```ts
   * Response.download('id,title\n1,Write docs\n', 'tasks.csv')
   * ```
   */
  static download(content: string, filename: string, contentType = 'application/octet-stream'): Response {
    return new Response(content, 200, { 'Content-Type': contentType }).setHeader(
      'Content-Disposition',
      encodeFilename(filename),
    )
  }

  /** Sets a header and returns this response, so calls chain. Throws a TypeError for CR/LF or a non-string value. */
  setHeader(key: string, value: string): this {
    assertHeader(key, value)
    const header = { name: key, key: key.toLowerCase(), value }
    const headers = this.ownHeaders()
    const at = indexOf(headers, header.key)
    if (at === -1) headers.push(header)
    else headers[at] = header
    return this
  }

  /** The header's value (the name is case-insensitive), or the default when it is not set. */
  getHeader(key: string, defaultValue: string | null = null): string | null {
    const at = indexOf(this.headers, key.toLowerCase())
    return at === -1 ? defaultValue : this.headers[at]!.value
  }

  /** All headers, by the names they were set with. */
  getHeaders(): Record<string, string> {
    const result: Record<string, string> = {}
    for (const { name, value } of this.headers) result[name] = value
    return result
  }

  hasHeader(key: string): boolean {
    return indexOf(this.headers, key.toLowerCase()) !== -1
  }

  removeHeader(key: string): this {
    const at = indexOf(this.headers, key.toLowerCase())
    if (at !== -1) this.ownHeaders().splice(at, 1)
    return this
  }

  /**
   * Adds a header that the framework has checked itself (a token name, its lower-case `key`, a value without CR or
   * LF) unless the response has one of that name: the router's header on every answer, without setHeader's checks.
   * @internal
   */
  addHeaderIfAbsent(name: string, key: string, value: string): void {
    if (indexOf(this.headers, key) === -1) this.ownHeaders().push({ name, key, value })
  }

  /** A new response's headers: one of the shared lists. */
  private withShared(headers: readonly Header[]): this {
    this.headers = headers
    return this
  }

  /** The header list this response may change: in place of a shared (frozen) list, a new one with its entries. */
  private ownHeaders(): Header[] {
    // Not slice(): on a frozen array V8 takes a slow path for it, about 0.5 µs against 0.03 µs for Array.from.
    if (Object.isFrozen(this.headers)) this.headers = Array.from(this.headers)
    return this.headers as Header[]
  }

  getStatusCode(): number {
    return this.statusCode
  }

  setStatusCode(statusCode: number): this {
    this.statusCode = statusCode
    return this
  }

  /** The body, always as a string. */
  getContent(): string {
    return this.content
  }

  setContent(content: ResponseContent): this {
    this.content = contentToString(content)
    this.jsonValue = undefined
    return this
  }

  /**
   * Adds a `Set-Cookie` header. Cookies are HttpOnly and SameSite=Lax unless told otherwise. A `path` or
   * `domain` with `;`, CR, LF or NUL throws a TypeError: it would add attributes of its own.
   *
   * @example
   * ```ts
   * response.setCookie('session', token, { maxAge: 60 * 60 * 24, secure: request.secure() })
   * ```
   */
  setCookie(name: string, value: string, options: CookieOptions = {}): this {
    if (!TOKEN.test(name)) throw new TypeError(`Invalid cookie name: ${JSON.stringify(name)}`)
    // A `;` would end the attribute and start another one (`Path=/; Domain=evil.example`), as CR or LF would a header.
    for (const attribute of ['path', 'domain'] as const) {
      const value = options[attribute]
      if (value !== undefined && /[;\r\n\0]/.test(value)) {
        throw new TypeError(`Cookie ${attribute} must not contain ";", CR, LF or NUL: ${JSON.stringify(value)}`)
      }
    }
    const parts = [`${name}=${encodeURIComponent(value)}`, `Path=${options.path ?? '/'}`]
    if (options.maxAge !== undefined) parts.push(`Max-Age=${Math.floor(options.maxAge)}`)
    if (options.expires) parts.push(`Expires=${options.expires.toUTCString()}`)
    if (options.domain) parts.push(`Domain=${options.domain}`)
    if (options.httpOnly ?? true) parts.push('HttpOnly')
    if (options.secure) parts.push('Secure')
    parts.push(`SameSite=${options.sameSite ?? 'Lax'}`)
    const cookie = parts.join('; ')
    if (LINE_BREAK.test(cookie) || cookie.includes('\0')) throw new TypeError('Cookie attributes must not contain line breaks')
    ;(this.cookies ??= []).push(cookie)
    return this
  }

  /** Expires a cookie in the browser. */
  clearCookie(name: string, options: Pick<CookieOptions, 'path' | 'domain'> = {}): this {
    return this.setCookie(name, '', { ...options, maxAge: 0, expires: new Date(0) })
  }

  /** The `Set-Cookie` values added with `setCookie`. */
  getCookies(): readonly string[] {
    return this.cookies ?? NO_COOKIES
  }

  /** Writes status, headers and body to Node's ServerResponse. A 204 or 304 sends no body. */
  send(res: ServerResponse): void {
    // writeHead takes a flat [name, value, name, value] list: no object is built and walked key by key.
    const head = headList(this.headers)
    if (this.cookies !== null) head.push('Set-Cookie', this.cookies)
    const status = this.statusCode
    if (status === 204 || status === 304 || (status >= 100 && status < 200)) {
      res.writeHead(status, head)
      res.end()
      return
    }
    head.push('Content-Length', String(Buffer.byteLength(this.content)))
    // Node would send `419 unknown`; every other status keeps Node's phrase.
    if (status === 419) res.writeHead(status, PAGE_EXPIRED, head)
    else res.writeHead(status, head)
    res.end(this.content)
  }
}
