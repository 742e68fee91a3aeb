import type { Cradle } from '../container/Container.js'

/** How a job is queued; each option falls back to the job class's `static options`, then to Fw's default. */
export interface DispatchOptions {
  /** The queue it waits on, for workers that take only some queues (default `default`). */
  queue?: string
  /** Seconds before it may run (default 0). */
  delay?: number
  /** How many times it may run before it is failed (default 3). */
  attempts?: number
  /** Seconds before the second try, doubled for each later one (default 10). */
  backoff?: number
  /** At most one job of this class with this key waits at a time: a dispatch while one waits is dropped. */
  uniqueKey?: string
}

/** A job class: built from the container's services, as a controller is, and run with its payload. */
export interface JobConstructor<Payload = any> {
  new (cradle: Cradle): { handle(payload: Payload): unknown }
  readonly name: string
  readonly options?: DispatchOptions
}

/** A job on its way to a queue, its options settled and its payload checked to be JSON. */
export interface PendingJob {
  readonly job: JobConstructor
  /** The class's name, which a worker looks the class up by. */
  readonly name: string
  readonly payload: unknown
  readonly queue: string
  readonly attempts: number
  readonly backoff: number
  /** When it may run first. */
  readonly availableAt: Date
  readonly uniqueKey: string | undefined
}

/** Where dispatched jobs go: run now (`sync`), recorded (`fake`), or stored for workers. */
export interface QueueDriver {
  readonly name: string
  push(job: PendingJob): Promise<void>
}
