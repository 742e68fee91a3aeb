import { HttpError, Response, type Request } from 'fw-runtime'

const users = [
  { id: 1, name: 'John Doe' },
  { id: 2, name: 'Jane Smith' },
]

export class UserController {
  /** GET /users */
  index(): Response {
    return Response.json({ users })
  }

  /** GET /users/{id} */
  show(_request: Request, id: string): Response {
    if (!/^\d+$/.test(id)) throw new HttpError(400, 'Invalid user ID')
    return Response.json({ user: { id: Number(id), name: `User ${id}` } })
  }

  /** POST /users: echoes the input back. */
  store(request: Request): Response {
    return Response.json({ message: 'User created', user: request.all() }, 201)
  }

  /** PUT /users/{id} */
  update(_request: Request, id: string): Response {
    return Response.json({ updated: id })
  }

  /** DELETE /users/{id} */
  destroy(_request: Request, id: string): Response {
    return Response.json({ deleted: id })
  }
}
