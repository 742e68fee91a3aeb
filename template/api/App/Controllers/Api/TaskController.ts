import { HttpError, Response, type Request } from 'fw-runtime'
import { z } from 'zod'

/** A task as the API answers it, for the routes' contracts in routes/web.ts (and so for /openapi.json). */
export const taskOut = z.object({ id: z.number().int(), title: z.string(), completed: z.boolean() })

type Task = z.infer<typeof taskOut>

/**
 * Sample tasks. A real application keeps them in the database (see database/migrations and
 * `fw make:model Task --migration`): nothing here is stored between requests.
 */
const tasks: readonly Task[] = [
  { id: 1, title: 'Read the Fw README', completed: true },
  { id: 2, title: 'Add a route in routes/web.ts', completed: false },
  { id: 3, title: 'Write a migration', completed: false },
]

/** What POST /api/tasks accepts: an optional title, a string when given (its route declares it: routes/web.ts). */
export const newTask = z.object({ title: z.string().default('Untitled') })

/** What PUT /api/tasks/{id} accepts. */
export const taskChanges = z.object({ title: z.string().default('Updated Task'), completed: z.boolean().default(false) })

export class TaskController {
  /** GET /api/tasks */
  index(): Response {
    return Response.json({ tasks, count: tasks.length })
  }

  /** GET /api/tasks/{id} */
  show(_request: Request, id: string): Response {
    const task = tasks.find((task) => String(task.id) === id)
    if (!task) throw new HttpError(404, 'Task not found')
    return Response.json({ task })
  }

  /** POST /api/tasks: a title that is not a string is a 422 with `errors.title`. */
  async store(request: Request): Promise<Response> {
    const { title } = await request.validate(newTask)
    const task: Task = { id: tasks.length + 1, title, completed: false }
    return Response.json({ message: 'Task created', task }, 201)
  }

  /** PUT /api/tasks/{id} */
  async update(request: Request, id: string): Promise<Response> {
    const { title, completed } = await request.validate(taskChanges)
    return Response.json({ message: 'Task updated', task: { id, title, completed } })
  }

  /** DELETE /api/tasks/{id} */
  destroy(_request: Request, id: string): Response {
    return Response.json({ message: 'Task deleted', id })
  }
}
