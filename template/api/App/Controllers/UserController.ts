import { HttpError, Response, type Request } from 'fw-runtime'
import { z } from 'zod'

// The sample users' contracts, which their routes declare (routes/web.ts) and so /openapi.json describes.

/** A sample user. */
export const sampleUser = z.object({ id: z.number().int(), name: z.string() })

/** What POST /users and PUT /users/{id} take: any JSON object, which POST echoes back. */
export const userInput = z.record(z.string(), z.unknown())

const users = [
  { id: 1, name: 'John Doe' },
  { id: 2, name: 'Jane Smith' },
]

export class UserController {
  /** GET /users */
  index(): Response {
    return Response.json({ users })
  }

  /** GET /users/{id}: a user for any numeric id; anything else is a 400. */
  show(_request: Request, id: string): Response {
    if (!/^\d+$/.test(id)) throw new HttpError(400, 'Invalid user ID')
    return Response.json({ user: { id: Number(id), name: `User ${id}` } })
  }

  /** POST /users: echoes the input back. */
  async store(request: Request): Promise<Response> {
    return Response.json({ message: 'User created', user: await request.validate(userInput) }, 201)
  }

  /** PUT /users/{id} */
  async update(request: Request, id: string): Promise<Response> {
    await request.validate(userInput)
    return Response.json({ updated: id })
  }

  /** DELETE /users/{id} */
  destroy(_request: Request, id: string): Response {
    return Response.json({ deleted: id })
  }
}
