import { Model } from 'fw-runtime'
import { TaskFactory } from '#database/factories/TaskFactory.js'

/**
 * A task of the task API (App/Controllers/Api/TaskController.ts), stored in the `tasks` table
 * (database/migrations). Its columns are typed from the database: `npm run migrate` writes them into
 * database/schema.d.ts.
 *
 * @example
 * const task = await Task.create({ title: 'Write the README' })
 * await Task.update(task.id, { completed: true })
 * const open = await Task.where('completed', '=', false)
 */
export class Task extends Model('tasks', { fillable: ['title', 'completed'] }) {
  /** Fake rows for tests and seeders (database/factories/TaskFactory.ts). */
  static factory = () => TaskFactory
}
