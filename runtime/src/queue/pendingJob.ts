import type { DispatchOptions, JobConstructor, PendingJob } from './types.js'

const DEFAULTS = { queue: 'default', delay: 0, attempts: 3, backoff: 10 } as const

// Only names pg-boss also takes (it refuses `:`), so that a queue keeps its name on PostgreSQL.
export const QUEUE_NAME = /^[\w.-]{1,64}$/

/**
 * The job as it will be queued: the options of the dispatch over the class's own over Fw's defaults, each checked,
 * and the payload checked to be plain JSON (what a queue stores), so that a job behaves the same whichever driver
 * runs it. Throws a TypeError naming the job and what is wrong.
 */
export function pendingJob(job: JobConstructor, payload: unknown, options: DispatchOptions = {}): PendingJob {
  const settled = { ...DEFAULTS, ...job.options, ...options }
  const wrong = (message: string) => new TypeError(`${job.name}.dispatch(): ${message}`)
  if (typeof settled.queue !== 'string' || !QUEUE_NAME.test(settled.queue)) {
    throw wrong(`queue must be 1 to 64 letters, digits and _ . -, got ${JSON.stringify(settled.queue)}`)
  }
  if (!isSeconds(settled.delay)) throw wrong(`delay must be a number of seconds, 0 or more, got ${String(settled.delay)}`)
  if (!Number.isInteger(settled.attempts) || settled.attempts < 1) throw wrong(`attempts must be a whole number, 1 or more, got ${String(settled.attempts)}`)
  if (!isSeconds(settled.backoff)) throw wrong(`backoff must be a number of seconds, 0 or more, got ${String(settled.backoff)}`)
  const { uniqueKey } = settled as DispatchOptions
  if (uniqueKey !== undefined && (typeof uniqueKey !== 'string' || uniqueKey.length === 0 || uniqueKey.length > 255)) {
    throw wrong(`uniqueKey must be text of 1 to 255 characters, got ${JSON.stringify(uniqueKey)}`)
  }
  const problem = notJson(payload, 'payload')
  if (problem) throw wrong(`its payload is stored as JSON, so it holds only plain objects, arrays, text, finite numbers, booleans and null: ${problem}`)
  return {
    job,
    name: job.name,
    payload,
    queue: settled.queue,
    attempts: settled.attempts,
    backoff: settled.backoff,
    availableAt: new Date(Date.now() + settled.delay * 1000),
    uniqueKey,
  }
}

function isSeconds(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0
}

/** Where a value stops being plain JSON (`payload.sentAt is a Date`), or undefined when it is JSON throughout. */
function notJson(value: unknown, path: string): string | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : `${path} is ${value}`
  if (value === undefined) return path === 'payload' ? undefined : `${path} is undefined`
  if (typeof value !== 'object') return `${path} is a ${typeof value}`
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const problem = notJson(value[index], `${path}[${index}]`)
      if (problem) return problem
    }
    return undefined
  }
  const prototype = Object.getPrototypeOf(value)
  if (prototype !== Object.prototype && prototype !== null) return `${path} is a ${(value as object).constructor?.name ?? 'class instance'} (send its id or its fields)`
  for (const [key, item] of Object.entries(value)) {
    const problem = item === undefined ? undefined : notJson(item, `${path}.${key}`)
    if (problem) return problem
  }
  return undefined
}
