import { randomInt, timingSafeEqual } from 'node:crypto'
import { HttpError, Response, type Request } from 'fw-runtime'
import { z } from 'zod'

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/**
 * What POST /api/users takes, for its route's contract (routes/web.ts) and so for /openapi.json. The route only
 * documents it: `store` checks the input itself, so that a missing field is a 400 before a bad email's 422 and
 * both come before the API key's 401.
 */
export const newUser = z.object({ name: z.string().min(1), email: z.email() })

/** The X-API-Key header against API_KEY from .env, compared in constant time. */
function hasValidApiKey(request: Request): boolean {
  const expected = process.env.API_KEY
  const given = request.header('X-API-Key')
  if (!expected || !given) return false
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/** `2025-01-31 13:45:00` (UTC): the `Y-m-d H:i:s` format. */
function timestamp(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ')
}

export class UserController {
  /** POST /api/users: validation first (400, then 422), then the API key (401). */
  store(request: Request): Response {
    const name = request.input('name')
    const email = request.input('email')
    if (!name || !email) throw new HttpError(400, 'Name and email are required')
    if (typeof email !== 'string' || !EMAIL.test(email)) throw new HttpError(422, 'Invalid email format')
    if (!hasValidApiKey(request)) throw new HttpError(401, 'Unauthorized')

    const user = { id: randomInt(1, 10_000), name, email, created_at: timestamp(new Date()) }
    return Response.json({ success: true, user }, 201)
      .setHeader('X-API-Version', '1.0')
      .setHeader('X-Request-ID', request.id())
  }
}
