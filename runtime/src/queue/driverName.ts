/**
 * The queue driver `QUEUE_DRIVER` names; unset, `database`: the application's own database keeps the jobs for a
 * worker (SQLite's table, or pg-boss on PostgreSQL). A module of its own, so that the CLI asks without loading a queue.
 *
 * @example
 * ```ts
 * queueDriverName({ QUEUE_DRIVER: 'sync' }) // 'sync'
 * queueDriverName({})                       // 'database'
 * ```
 */
export function queueDriverName(env: NodeJS.ProcessEnv = process.env): string {
  return env.QUEUE_DRIVER || 'database'
}
