import type { JobError } from './types.js'

/** What a run threw, as JSON can keep it. */
export function jobError(error: unknown): JobError {
  if (error instanceof Error) return { name: error.name, message: error.message, stack: error.stack }
  return { name: 'Error', message: String(error), stack: undefined }
}

/**
 * A stored error read back: Fw's own `{ name, message, stack }` (as JSON text or an object), or what pg-boss writes
 * when it gives up on a job by itself (`{ value: { message: 'job heartbeat timeout' } }`).
 */
export function storedError(stored: unknown): JobError {
  const value = typeof stored === 'string' ? (JSON.parse(stored) as unknown) : stored
  if (typeof value !== 'object' || value === null) return { name: 'Error', message: '(no error was recorded)', stack: undefined }
  const error = ('value' in value && typeof value.value === 'object' && value.value !== null ? value.value : value) as Partial<JobError>
  return { name: error.name ?? 'Error', message: error.message ?? '', stack: error.stack }
}
