import { Encrypter } from '../session/Encrypter.js'
import type { PendingJob } from './types.js'
import { UnrecoverableJobError } from './UnrecoverableJobError.js'

/** The one key of a stored payload that is sealed: what a worker tells it from a plain one by. */
const SEALED = 'fw:encrypted'

/** Its own purpose: a key derived for jobs never opens a session cookie, nor the reverse. */
const PURPOSE = 'fw-queue-payload'

const USED_FOR = 'queued mail and encrypted jobs (static encrypted = true)'

/** The Encrypter of the keys in the environment, derived once for them rather than for every job. */
let cached: { keys: string; encrypter: Encrypter } | undefined

function encrypter(): Encrypter {
  const keys = `${process.env.APP_KEY ?? ''}\n${process.env.APP_PREVIOUS_KEYS ?? ''}`
  if (cached?.keys !== keys) cached = { keys, encrypter: Encrypter.fromEnvironment(PURPOSE, USED_FOR) }
  return cached.encrypter
}

/**
 * The job as a queue stores it: for a class with `static encrypted = true` (Fw's SendQueuedMail is one), its payload
 * sealed with `APP_KEY` (AES-256-GCM, see `Encrypter`), so that the jobs table holds nothing readable of it (a reset
 * link, say), not even while the job waits or after it has failed. Other jobs as they are. Throws, saying what needs
 * it, when APP_KEY is unset.
 *
 * @example
 * ```ts
 * sealPayload(pendingJob(SendQueuedMail, message)).payload // { 'fw:encrypted': 'v1.…' }
 * ```
 */
export function sealPayload(job: PendingJob): PendingJob {
  if (job.job.encrypted !== true) return job
  const sealed = encrypter().seal(JSON.stringify(job.payload ?? null))
  return { ...job, payload: { [SEALED]: sealed } }
}

/**
 * A stored payload as its job's `handle` takes it: opened when it was sealed, with APP_KEY or one of
 * `APP_PREVIOUS_KEYS`, as it is otherwise. A sealed payload that no key opens (the key that sealed it is gone, or the
 * row was changed) throws an UnrecoverableJobError that says so: no later attempt could open it either.
 */
export function openPayload(name: string, payload: unknown): unknown {
  if (!isSealed(payload)) return payload
  let keys: Encrypter
  try {
    keys = encrypter()
  } catch (error) {
    throw new UnrecoverableJobError(`${name}'s payload is encrypted: ${(error as Error).message}`, { cause: error })
  }
  const opened = keys.open(payload[SEALED])
  if (opened === undefined) {
    throw new UnrecoverableJobError(
      `${name}'s payload is encrypted with a key that is neither APP_KEY nor one of APP_PREVIOUS_KEYS (or it was altered), so it cannot be read: ` +
        'after a key change, list the old key in APP_PREVIOUS_KEYS (comma-separated) and fw queue:retry the job',
    )
  }
  return JSON.parse(opened) as unknown
}

function isSealed(payload: unknown): payload is { [SEALED]: string } {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return false
  const keys = Object.keys(payload)
  return keys.length === 1 && keys[0] === SEALED && typeof (payload as Record<string, unknown>)[SEALED] === 'string'
}
