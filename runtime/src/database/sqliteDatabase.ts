import { AsyncLocalStorage } from 'node:async_hooks'
import { Kysely, type DatabaseConnection } from 'kysely'
import type { ResolvedDatabaseConfig } from './databaseConfig.js'
import { keepDataVersion } from './sqliteDataVersion.js'
import { sqliteDialect } from './sqliteDialect.js'

/** The connection a piece of work holds, while it holds it. */
interface Holding {
  connection: DatabaseConnection | undefined
}

/**
 * A kysely instance on a SQLite file. SQLite has one connection per process (better-sqlite3's), which a transaction
 * holds until it ends: a query made through this instance inside `db().transaction().execute(async (trx) => …)` (a
 * model, `Job.dispatch()`, anything that calls `db()` rather than using `trx`) would wait for that connection forever.
 * Here it runs on the connection its own work holds, so inside the transaction, as Fw's `transaction()` does for
 * every `db()` call. Work that merely runs at the same time still waits its turn.
 *
 * @example
 * ```ts
 * const db = sqliteDatabase<Tables>('/srv/app/database/database.sqlite', databaseConfig())
 * await db.transaction().execute(async (trx) => {
 *   await trx.insertInto('posts').values({ title: 'Hello' }).execute()
 *   await SendNewsletter.dispatch({ title: 'Hello' }) // stored with the post, or not at all
 * })
 * ```
 */
export function sqliteDatabase<DB>(file: string, config: ResolvedDatabaseConfig): Kysely<DB> {
  // Its queue's idle workers ask the connection whether another process committed (see `sqliteDataVersion`).
  const db: Kysely<DB> = new Kysely<DB>({ dialect: sqliteDialect(file, config, (connection) => keepDataVersion(db, connection)) })
  // This executor serves the instance, its query builders and its transactions; `withSchema` or a plugin makes an
  // executor of its own, which keeps kysely's path.
  const executor = db.getExecutor()
  const provide = executor.provideConnection.bind(executor)
  const holding = new AsyncLocalStorage<Holding>()
  executor.provideConnection = <T>(consumer: (connection: DatabaseConnection) => Promise<T>, options?: Parameters<typeof provide>[1]): Promise<T> => {
    const held = holding.getStore()?.connection
    if (held) return consumer(held)
    return provide(async (connection) => {
      const hold: Holding = { connection }
      try {
        return await holding.run(hold, () => consumer(connection))
      } finally {
        // A callback the work left behind (a timer, a promise not awaited) runs later: by then it waits its turn.
        hold.connection = undefined
      }
    }, options)
  }
  return db
}
