import { createHash, timingSafeEqual } from 'node:crypto'
import type { Kysely } from 'kysely'
import { Container } from '../container/Container.js'
import { HttpError } from '../http/HttpError.js'
import type { Middleware, Next } from '../http/Middleware.js'
import { documented } from '../http/middlewareDocs.js'
import type { Request } from '../http/Request.js'
import { Response } from '../http/Response.js'
import { BYPASS_COOKIE, BYPASS_SECONDS, bypassCookie, isValidBypass } from '../maintenance/bypassCookie.js'
import { uncounted } from '../database/uncounted.js'
import { maintenanceStatus } from '../maintenance/maintenanceStatus.js'
import type { MaintenanceState } from '../maintenance/maintenanceTable.js'

export interface MaintenanceOptions {
  /**
   * Paths that keep answering while the application is down: `/health` (the default), so that a load balancer does
   * not take the machines out; a pattern as `router.use` takes (`/status/*`). Giving the option replaces the default.
   */
  except?: readonly string[]
  /** The database that holds the state; the container's `db` by default. */
  database?: () => Kysely<any>
}

/**
 * Maintenance mode, as Laravel's `PreventRequestsDuringMaintenance`: while `fw down` holds, every request answers
 * 503 with `Retry-After` (and `Refresh` with `fw down --refresh`): `{"error":"Service Unavailable"}` for API clients,
 * an HTML page for browsers (an `Accept` naming text/html: the `--render` page, else Fw's 503 page). Except:
 * the `except` paths (`/health`), and browsers carrying the bypass cookie, which `GET /<secret>` (`fw down
 * --secret=…`) sets before redirecting to `/`. The state lives in the application's database and each process
 * reads it at most once a second, so `fw down` reaches every process of every machine within about a second.
 * Run it first, for every request: `router.use(maintenanceMode())` in bootstrap/app.ts.
 *
 * @example
 * ```ts
 * router.use(maintenanceMode({ except: ['/health', '/webhooks/*'] }))
 * ```
 */
export function maintenanceMode(options: MaintenanceOptions = {}): Middleware {
  const except = (options.except ?? ['/health']).map(pathMatcher)
  const database = options.database ?? (() => Container.getInstance().make<Kysely<any>>('db'))
  const decide = (request: Request, next: Next, state: MaintenanceState | null): Promise<Response> | Response => {
    if (state === null) return next()
    if (state.secretHash !== undefined) {
      if (isValidBypass(request.cookie(BYPASS_COOKIE), state.secretHash)) return next()
      if (isSecretPath(request, state.secretHash)) {
        return Response.redirect('/').setCookie(BYPASS_COOKIE, bypassCookie(state.secretHash), { maxAge: BYPASS_SECONDS, secure: request.secure() })
      }
    }
    return unavailable(request, state)
  }
  const middleware: Middleware = (request, next) => {
    // An exempt path never waits for the database: a health check answers whatever the state or the database does.
    if (except.some((matches) => matches(request.uri()))) return next()
    // Up, and read within the last second (nearly every request): straight on, without a promise of its own. A read
    // that follows the clock is not the request's work: expectQueries does not count it.
    const status = maintenanceStatus(uncounted(database()))
    if (status === null) return next()
    return status instanceof Promise ? status.then((state) => decide(request, next, state)) : decide(request, next, status)
  }
  return documented(middleware, {
    responses: { 503: { description: 'Down for maintenance (fw down)', headers: { 'Retry-After': 'Seconds to wait before trying again' } } },
  })
}

/** `/health`: that path alone; `/status/*`: that path and every path below it; `/*`: every path. */
function pathMatcher(pattern: string): (path: string) => boolean {
  if (!/^\/[^*?#\s]*$|^\/(?:[^*?#\s]*\/)?\*$/.test(pattern)) {
    throw new Error(`maintenanceMode({ except: ["${pattern}"] }): give a path ("/health") or a path and every path below it ("/status/*")`)
  }
  if (pattern.endsWith('*')) {
    const base = pattern.slice(0, -2)
    return (path) => path === base || path.startsWith(`${base}/`)
  }
  const base = pattern.replace(/\/+$/, '')
  return (path) => path === base || path === `${base}/` || (base === '' && path === '/')
}

/** `GET /<secret>`: the path's one segment hashes to the stored secret's hash. */
function isSecretPath(request: Request, secretHash: string): boolean {
  const path = request.uri()
  if (request.method() !== 'GET' || path.length < 2 || path.indexOf('/', 1) !== -1) return false
  let secret: string
  try {
    secret = decodeURIComponent(path.slice(1))
  } catch {
    return false
  }
  return timingSafeEqual(createHash('sha256').update(secret).digest(), Buffer.from(secretHash, 'hex'))
}

function unavailable(request: Request, state: MaintenanceState): Response {
  const headers: Record<string, string> = { 'Retry-After': String(state.retry) }
  if (state.refresh !== undefined) headers.Refresh = String(state.refresh)
  // The same choice as every error page's: a browser that asks for a page gets the --render one.
  if (state.page !== undefined && !request.expectsJson()) {
    const page = Response.html(state.page, 503)
    for (const [name, value] of Object.entries(headers)) page.setHeader(name, value)
    return page
  }
  // Through the router's error rendering: JSON for API clients, Fw's 503 page for browsers, the app's onError hook.
  throw new HttpError(503, 'Service Unavailable', { headers })
}
