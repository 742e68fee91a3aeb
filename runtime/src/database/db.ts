import { Container } from '../container/Container.js'
import type { Database } from './Tables.js'
// Provides `db` to the process-wide container: whoever can call db() finds it registered.
import './registerDatabase.js'

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
