// fw-runtime/schedule: the tasks of bootstrap/schedule.ts, run by fw schedule:work, exactly once per time.
export { schedule } from './schedule/schedule.js'
export { ScheduledTask } from './schedule/ScheduledTask.js'
export { Scheduler, type SchedulerOptions, type SlotOutcome, type SlotResult } from './schedule/Scheduler.js'
