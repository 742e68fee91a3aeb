import { Container } from '../container/Container.js'
import type { Database } from './Tables.js'

/**
 * The application's database: the `db` service of the process-wide container.
 *
 * @example
 * ```ts
 * const posts = await db().selectFrom('posts').selectAll().execute()
 * ```
 */
export function db(): Database {
  return Container.getInstance().make<Database>('db')
}
