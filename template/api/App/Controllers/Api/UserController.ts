import { randomInt } from 'node:crypto'
import { documented, HttpError, Response, type Middleware, type Request } from 'fw-runtime'
import { z } from 'zod'

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** What POST /api/users takes, for its route's contract (routes/web.ts) and so for /openapi.json. */
export const newUser = z.object({ name: z.string().min(1), email: z.string().regex(EMAIL) })

/** What POST /api/users answers. */
export const createdUser = z.object({
  success: z.boolean(),
  user: z.object({ id: z.number().int(), name: z.string(), email: z.string(), created_at: z.string() }),
})

/**
 * POST /api/users's input, checked ahead of the API key (requireApiKey): a missing name or email is a 400, then an
 * invalid email a 422, and only then a missing or wrong key a 401. A middleware, as the key check is, so that it
 * runs first; `documented` puts its two answers in /openapi.json.
 */
export const checkNewUser = documented<Middleware>(
  (request, next) => {
    const name = request.input('name')
    const email = request.input('email')
    if (!name || !email) throw new HttpError(400, 'Name and email are required')
    if (typeof name !== 'string') throw new HttpError(422, 'The name must be text')
    if (typeof email !== 'string' || !EMAIL.test(email)) throw new HttpError(422, 'Invalid email format')
    return next()
  },
  { responses: { 400: { description: 'Name and email are required' }, 422: { description: 'The name is not text, or the email is not an email' } } },
)

/** `2025-01-31 13:45:00` (UTC): the `Y-m-d H:i:s` format. */
function timestamp(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ')
}

export class UserController {
  /** POST /api/users, behind checkNewUser and requireApiKey (routes/web.ts): the user, with the API's headers. */
  store(request: Request): Response {
    const { name, email } = request.all() as z.infer<typeof newUser>
    const user = { id: randomInt(1, 10_000), name, email, created_at: timestamp(new Date()) }
    return Response.json({ success: true, user }, 201)
      .setHeader('X-API-Version', '1.0')
      .setHeader('X-Request-ID', request.id())
  }
}
