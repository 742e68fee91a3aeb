// fw-runtime/queue: jobs, dispatched to the queue `QUEUE_DRIVER` names, or to a fake in tests.
export { Job, type PayloadOf } from './queue/Job.js'
export { queue } from './queue/queue.js'
export { QueueFake, type PushedJob } from './queue/QueueFake.js'
export type { DispatchOptions, JobConstructor } from './queue/types.js'
export { UnrecoverableJobError } from './queue/UnrecoverableJobError.js'
