import { HttpError, Response, type Request } from 'fw-runtime'

interface Task {
  id: number
  title: string
  completed: boolean
}

/**
 * Sample tasks. A real application keeps them in the database (see database/migrations and
 * `fw make:model Task --migration`): nothing here is stored between requests.
 */
const tasks: readonly Task[] = [
  { id: 1, title: 'Read the Fw README', completed: true },
  { id: 2, title: 'Add a route in routes/web.ts', completed: false },
  { id: 3, title: 'Write a migration', completed: false },
]

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

  /** POST /api/tasks */
  store(request: Request): Response {
    const task: Task = {
      id: tasks.length + 1,
      title: request.input('title', 'Untitled'),
      completed: false,
    }
    return Response.json({ message: 'Task created', task }, 201)
  }

  /** PUT /api/tasks/{id} */
  update(request: Request, id: string): Response {
    const task = {
      id,
      title: request.input('title', 'Updated Task'),
      completed: request.input('completed', false),
    }
    return Response.json({ message: 'Task updated', task })
  }

  /** DELETE /api/tasks/{id} */
  destroy(_request: Request, id: string): Response {
    return Response.json({ message: 'Task deleted', id })
  }
}
