import type { Middleware } from '../http/Middleware.js'
import { Encrypter } from './Encrypter.js'
import { Session, type SessionPayload } from './Session.js'

export interface SessionOptions {
  /** The cookie's name (default `fw_session`). */
  cookie?: string
  /** Minutes of inactivity before the session ends (default `SESSION_LIFETIME`, else 120). */
  lifetime?: number
  /** Send the cookie over https only (default: when the request came over https, directly or through a proxy). */
  secure?: boolean
  sameSite?: 'Strict' | 'Lax' | 'None'
  path?: string
  domain?: string
}

/** Browsers keep cookies up to 4096 bytes, name and attributes included. */
const COOKIE_LIMIT = 4000

/**
 * The `session` middleware: the session lives in an encrypted, authenticated cookie keyed by `APP_KEY`, so
 * any number of processes share it with no server-side state. A cookie that was tampered with, sealed with
 * another key, or expired is an empty session, never an error. The cookie is HttpOnly and SameSite=Lax, and
 * Secure over https; it is written on every response while the session holds something (so its lifetime
 * slides) and cleared once it holds nothing.
 *
 * @example
 * ```ts
 * Route.post('/cart', (request) => {
 *   request.session.put('cart', [...request.session.get<number[]>('cart', []), Number(request.input('id'))])
 *   return Response.redirect('/cart', 303)
 * }).middleware('session')
 * ```
 */
export function startSession(options: SessionOptions = {}): Middleware {
  const name = options.cookie ?? 'fw_session'
  const path = options.path ?? '/'
  // Read when the first request comes, not when the routes load: .env may be loaded after this call.
  let encrypter: Encrypter | undefined
  let lifetimeMs = 0

  return async (request, next) => {
    if (!encrypter) {
      encrypter = Encrypter.fromEnvironment('fw-session')
      lifetimeMs = (options.lifetime ?? (Number(process.env.SESSION_LIFETIME) || 120)) * 60_000
    }
    const sealed = request.cookie(name)
    const session = new Session(sealed === undefined ? undefined : readPayload(encrypter.open(sealed)), lifetimeMs)
    request.session = session

    const response = await next()
    const payload = session.close(lifetimeMs)
    if (session.isEmpty()) {
      if (sealed !== undefined) response.clearCookie(name, { path, domain: options.domain })
      return response
    }
    const value = encrypter.seal(JSON.stringify(payload))
    if (value.length > COOKIE_LIMIT) {
      throw new Error(`The session holds too much for its cookie (${value.length} bytes sealed, ${COOKIE_LIMIT} at most): keep large data in the database and its id in the session`)
    }
    return response.setCookie(name, value, {
      maxAge: Math.floor(session.lifetime(lifetimeMs) / 1000),
      path,
      domain: options.domain,
      httpOnly: true,
      secure: options.secure ?? request.secure(),
      sameSite: options.sameSite ?? 'Lax',
    })
  }
}

/** The payload of an opened cookie, or undefined when it is not one or has expired. */
function readPayload(text: string | undefined): SessionPayload | undefined {
  if (text === undefined) return undefined
  try {
    const payload = JSON.parse(text) as SessionPayload
    const valid =
      typeof payload.id === 'string' &&
      typeof payload.data === 'object' && payload.data !== null &&
      Array.isArray(payload.flash?.new) && Array.isArray(payload.flash?.old) &&
      typeof payload.expires === 'number' &&
      (payload.lifetime === undefined || typeof payload.lifetime === 'number')
    if (!valid || payload.expires <= Date.now()) return undefined
    // Values from the cookie are the application's own, but never let a key reach Object.prototype.
    payload.data = Object.assign(Object.create(null) as Record<string, unknown>, payload.data)
    return payload
  } catch {
    return undefined
  }
}
