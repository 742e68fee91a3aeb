import { HttpError } from '../http/HttpError.js'
import type { Request } from '../http/Request.js'

/** The signed-in user, as the `auth` middleware puts it in `request.user`: never the password hash. */
export interface AuthUser {
  id: number
  name: string
  email: string
}

/**
 * The signed-in user of a request that went through the `auth` middleware; a 401 HttpError otherwise.
 *
 * @example
 * ```ts
 * Route.get('/greeting', (request) => ({ hello: currentUser(request).name })).middleware(auth)
 * ```
 */
export function currentUser(request: Request): AuthUser {
  const user = request.user
  if (!isAuthUser(user)) throw new HttpError(401, 'Unauthenticated')
  return user
}

function isAuthUser(value: unknown): value is AuthUser {
  if (typeof value !== 'object' || value === null) return false
  const user = value as Record<string, unknown>
  return typeof user.id === 'number' && typeof user.name === 'string' && typeof user.email === 'string'
}
