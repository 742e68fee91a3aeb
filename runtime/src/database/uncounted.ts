import type { Kysely } from 'kysely'

const ORIGINAL = Symbol('fw.uncounted')

/**
 * Marks `counted` (a copy of `database` that counts its queries, as `expectQueries` makes) so that `uncounted` finds
 * `database` again.
 */
export function markCounted(counted: Kysely<any>, database: Kysely<any>): void {
  Object.defineProperty(counted, ORIGINAL, { value: database })
}

/**
 * The database behind a counting copy, for fw-runtime's own reads that follow the clock rather than the work (the
 * once-a-second maintenance check): a test that counts a request's queries counts the same number every time.
 *
 * @example
 * ```ts
 * const state = await maintenanceStatus(uncounted(db()))
 * ```
 */
export function uncounted<D extends Kysely<any>>(database: D): D {
  return ((database as unknown as Record<symbol, D | undefined>)[ORIGINAL] ?? database) as D
}
