import { factory } from 'fw-runtime'
import { Task } from '#app/Models/Task.js'

/** Fake tasks for tests and seeders, one in four completed: `TaskFactory.count(3).create()`, `TaskFactory.state('completed').create()`. */
export const TaskFactory = factory(
  () => Task,
  ({ faker }) => ({ title: faker.lorem.sentence({ min: 2, max: 6 }), completed: faker.datatype.boolean({ probability: 0.25 }) }),
  { states: { completed: { completed: true }, open: { completed: false } } },
)
