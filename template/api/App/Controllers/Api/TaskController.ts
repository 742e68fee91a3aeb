import { HttpError, Response, type Request } from 'fw-runtime'
import { z } from 'zod'
import { Task } from '#app/Models/Task.js'

// The task API's contracts, which its routes declare (routes/web.ts) and so /openapi.json describes.

/** A task as the API answers it: a row of the `tasks` table (App/Models/Task.ts). */
export const taskOut = z.object({
  id: z.number().int(),
  title: z.string(),
  completed: z.boolean(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
})

/** A title as the `tasks` table holds it: at most 255 characters, and no NUL, which PostgreSQL's text cannot hold. */
const title = z.string().max(255).regex(/^[^\0]*$/, 'The title cannot hold a NUL character')

/** What POST /api/tasks accepts: an optional title. */
export const newTask = z.object({ title: title.default('Untitled') })

/** What PUT /api/tasks/{id} accepts: the title, whether it is completed, or both; what it leaves out stays as it is. */
export const taskChanges = z.object({ title: title.optional(), completed: z.boolean().optional() })

export class TaskController {
  /** GET /api/tasks: every task, oldest first. */
  async index(): Promise<Response> {
    const tasks = await Task.all()
    return Response.json({ tasks, count: tasks.length })
  }

  /** GET /api/tasks/{id} */
  async show(_request: Request, id: string): Promise<Response> {
    const task = await Task.find(id)
    if (!task) throw notFound()
    return Response.json({ task })
  }

  /** POST /api/tasks: 201 with the task; a title that is not a string is a 422 with `errors.title`. */
  async store(request: Request): Promise<Response> {
    const { title } = await request.validate(newTask)
    const task = await Task.create({ title })
    return Response.json({ message: 'Task created', task }, 201)
  }

  /** PUT /api/tasks/{id} */
  async update(request: Request, id: string): Promise<Response> {
    const task = await Task.update(id, await request.validate(taskChanges))
    if (!task) throw notFound()
    return Response.json({ message: 'Task updated', task })
  }

  /** DELETE /api/tasks/{id}: the task is gone, and GET answers 404 for it from now on. */
  async destroy(_request: Request, id: string): Promise<Response> {
    if (!(await Task.delete(id))) throw notFound()
    return Response.json({ message: 'Task deleted', id: Number(id) })
  }
}

function notFound(): HttpError {
  return new HttpError(404, 'Task not found')
}
