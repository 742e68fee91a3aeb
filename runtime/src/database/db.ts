import { AsyncLocalStorage } from 'node:async_hooks'
import type { Transaction } from 'kysely'
import { Container } from '../container/Container.js'
import type { Database, Tables } from './Tables.js'
// Provides `db` to the process-wide container: whoever can call db() finds it registered.
import './registerDatabase.js'

/** The transaction that `transaction()` runs its work in, for every `db()` inside it. */
const current = new AsyncLocalStorage<Transaction<Tables>>()

/**
 * The application's database: the `db` service of the process-wide container, or, inside `transaction()`, that
 * transaction, so that models and fw-runtime's own queries take part in it without being handed it.
 *
 * @example
 * ```ts
 * const posts = await db().selectFrom('posts').selectAll().execute()
 * ```
 */
export function db(): Database {
  return current.getStore() ?? Container.getInstance().make<Database>('db')
}

/**
 * Runs `work` in one database transaction, as Laravel's `DB::transaction()`: every query made through `db()` while
 * it runs (models, fw-runtime/auth, your own) goes through the transaction, which commits when `work` resolves and
 * rolls back, all of it, when it throws. Inside another `transaction()`, `work` joins the outer one.
 *
 * @example
 * ```ts
 * await transaction(async () => {
 *   const post = await Post.create({ title: 'Hello' })
 *   await Comment.create({ post_id: post.id, body: 'First' })
 * })
 * ```
 */
export function transaction<T>(work: (trx: Transaction<Tables>) => Promise<T>): Promise<T> {
  const outer = current.getStore()
  if (outer) return work(outer)
  return db()
    .transaction()
    .execute((trx) => current.run(trx, () => work(trx)))
}
