import type { Kysely } from 'kysely'
import { maintenanceStatus } from './maintenanceStatus.js'

/**
 * A queue worker's `paused` check: true while `fw down` holds (read at most once a second), said once on stdout
 * when the worker pauses and once when it goes on.
 *
 * @example
 * ```ts
 * new Worker(queue, jobs, { paused: pauseWhileDown(db), logger })
 * ```
 */
export function pauseWhileDown(database: Kysely<any>): () => Promise<boolean> {
  let pausedBefore = false
  return async () => {
    const paused = (await maintenanceStatus(database)) !== null
    if (paused !== pausedBefore) console.log(paused ? '[fw] the app is down (fw down): no new job until fw up' : '[fw] the app is up: taking jobs again')
    pausedBefore = paused
    return paused
  }
}
