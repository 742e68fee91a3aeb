import { AsyncLocalStorage } from 'node:async_hooks'
import type { Transaction } from 'kysely'
import { Container } from '../container/Container.js'
import type { Database, Tables } from './Tables.js'
// Provides `db` to the process-wide container: whoever can call db() finds it registered.
import './registerDatabase.js'

/** The transaction that `transaction()` runs its work in, and what waits for it to commit. */
interface Running {
  readonly trx: Transaction<Tables>
  readonly afterCommit: (() => unknown)[]
}

const current = new AsyncLocalStorage<Running>()

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
  return current.getStore()?.trx ?? Container.getInstance().make<Database>('db')
}

/**
 * Runs `work` in one database transaction, as Laravel's `DB::transaction()`: every query made through `db()` while
 * it runs (models, fw-runtime/auth, your own) goes through the transaction, which commits when `work` resolves and
 * rolls back, all of it, when it throws. Inside another `transaction()`, `work` joins the outer one. What
 * `afterCommit()` was given inside it runs once the transaction has committed, in order, and never after a rollback.
 *
 * @example
 * ```ts
 * await transaction(async () => {
 *   const post = await Post.create({ title: 'Hello' })
 *   await Comment.create({ post_id: post.id, body: 'First' })
 * })
 * ```
 */
export async function transaction<T>(work: (trx: Transaction<Tables>) => Promise<T>): Promise<T> {
  const outer = current.getStore()
  if (outer) return work(outer.trx)
  const afterCommit: (() => unknown)[] = []
  const result = await db()
    .transaction()
    .execute((trx) => current.run({ trx, afterCommit }, () => work(trx)))
  for (const callback of afterCommit) await callback()
  return result
}

/**
 * Runs `callback` once the transaction it is called in has committed (right away outside a transaction), as
 * Laravel's `DB::afterCommit()`: for what must not happen for writes that are rolled back, such as a job that reads
 * them or a mail that announces them. It is dropped when the transaction rolls back.
 *
 * @example
 * ```ts
 * await transaction(async () => {
 *   const user = await User.create(values)
 *   await afterCommit(() => console.log(`user ${user.id} is stored`))
 * })
 * ```
 */
export async function afterCommit(callback: () => unknown): Promise<void> {
  const running = current.getStore()
  if (running) running.afterCommit.push(callback)
  else await callback()
}
