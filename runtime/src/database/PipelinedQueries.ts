import type { CompiledQuery, QueryResult } from 'kysely'
import type { Pool, PoolClient, QueryResult as PgResult } from 'pg'
import type { ResolvedDatabaseConfig } from './databaseConfig.js'
import type { StatementNames } from './StatementNames.js'
import { translate } from './postgresDialect.js'
import { runNamed, toQueryResult, type PgCallback } from './pgQuery.js'

/** A pool connection that plain queries share while they run on it. */
interface Shared {
  readonly client: PoolClient
  readonly release: (error?: Error | boolean) => void
  /** Queries sent on it and not answered yet. */
  running: number
  /** Given back to the pool once its queries answer: it takes no new ones. */
  leaving: boolean
  /** The error that broke it, for the pool to drop it when its queries are answered. */
  broken?: Error
  /** When its last query was answered (`performance.now()`). */
  answeredAt: number
}

type Taken = (error: Error | undefined, shared?: Shared) => void

/** A statement is quick once this many runs in a row each took PostgreSQL under `QUICK_MS`. */
const QUICK_RUNS = 3
const QUICK_MS = 20

/**
 * The plain queries of a PostgreSQL `db` (one statement, outside a transaction), pipelined on connections they
 * share: when every connection this process may open is busy, a query is written on the least busy one behind the
 * queries already there, without waiting for their answers (pg's pipeline mode, each query with a Sync of its own, so
 * that one failing does not fail the others). A route that makes twenty queries then costs PostgreSQL and Node a
 * few round trips instead of twenty, and the pool serves many requests at once instead of queueing them.
 *
 * A query written behind others cannot be withdrawn, so only quick statements share: the prepared ones
 * (`StatementNames`) whose last `QUICK_RUNS` runs each took PostgreSQL under `QUICK_MS`. Any other query (a
 * first run, a report, `pg_sleep`, a statement that was slow or failed) takes a connection of its own, as every query
 * does with `DB_PIPELINE=false`: it waits for one at most `DB_CONNECTION_TIMEOUT_MS` (503 after), and never waits behind
 * another request's statement.
 *
 * The shared connections are the pool's own, taken with `pool.connect()` as a query needs one and given back when
 * none of their queries runs, so `DB_POOL_MAX` bounds the whole process and idle connections close as before. What
 * waits for the pool (a transaction, `connection()`, a query of its own) is not starved: while it waits, a shared
 * connection takes no new query and goes back to the pool once its own have answered. A query that cannot reach the
 * server fails with DatabaseUnavailableError (503), and a connection that broke is dropped once its queries are
 * answered.
 */
export class PipelinedQueries {
  private readonly shared: Shared[] = []
  /** Connections asked of the pool and not given yet. */
  private asking = 0
  /** Queries waiting for a connection while every one this process may open is being opened. */
  private readonly waiting: Taken[] = []
  /** The quick runs in a row of each named statement (`QUICK_RUNS`, `QUICK_MS`). */
  private readonly quickRuns = new Map<string, number>()

  private readonly max: number
  private readonly pipeline: boolean

  constructor(
    readonly pool: Pool,
    config: Pick<ResolvedDatabaseConfig, 'poolMax' | 'pipeline'>,
    /** Which texts to run as named statements; none without it. */
    private readonly names?: StatementNames,
  ) {
    this.max = config.poolMax
    this.pipeline = config.pipeline
  }

  /**
   * One query, as kysely's result: shared and pipelined when its statement is known to be quick (and `pipeline` is
   * on), else on a connection of its own.
   */
  run<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const parameters = query.parameters as unknown[]
    const name = this.names?.of(query.sql)
    const quick = this.pipeline && name !== undefined && (this.quickRuns.get(name) ?? 0) >= QUICK_RUNS
    return new Promise((resolve, reject) => {
      const answer = (error: Error | undefined, result: PgResult) => {
        if (error) reject(translate(error))
        else resolve(toQueryResult<R>(result))
      }
      if (!quick) return this.alone(query.sql, parameters, name, answer)
      this.take((takeError, shared) => {
        if (takeError || !shared) return reject(translate(takeError))
        shared.running++
        const sentAt = performance.now()
        runNamed(shared.client, query.sql, parameters, name, (error, result) => {
          const now = performance.now()
          // Its own time: since the answer before it on this connection, when it was written behind that one.
          this.timed(name, now - Math.max(sentAt, shared.answeredAt), error)
          shared.answeredAt = now
          if (error && isBroken(shared.client)) this.drop(shared, error)
          this.answered(shared)
          answer(error, result)
        })
      })
    })
  }

  /** A query on a connection of its own, taken from the pool (and within its deadline) and given back when it answers. */
  private alone(text: string, parameters: unknown[], name: string | undefined, answer: PgCallback): void {
    this.pool.connect((connectError, client, release) => {
      if (connectError || !client) return answer(connectError, undefined as never)
      const sentAt = performance.now()
      runNamed(client, text, parameters, name, (error, result) => {
        this.timed(name, performance.now() - sentAt, error)
        // As kysely's driver does: the connection goes back to the pool, which drops it if it broke.
        release()
        answer(error, result)
      })
    })
  }

  /** Counts the quick runs of a statement in a row; one slow run, or one that failed, starts the count again. */
  private timed(name: string | undefined, ms: number, error: Error | null | undefined): void {
    // Without pipelining no query shares a connection, so the count would decide nothing.
    if (name === undefined || !this.pipeline) return
    this.quickRuns.set(name, !error && ms < QUICK_MS ? (this.quickRuns.get(name) ?? 0) + 1 : 0)
  }

  /** A connection for one more query: an idle one, else a new one while the pool allows, else the least busy. */
  private take(taken: Taken): void {
    let least: Shared | undefined
    for (const shared of this.shared) if (!shared.leaving && (least === undefined || shared.running < least.running)) least = shared
    if (least !== undefined && least.running > 0 && this.shared.length + this.asking < this.max) least = undefined
    if (least !== undefined) {
      this.makeRoomForOthers(least)
      return taken(undefined, least)
    }
    if (this.shared.length + this.asking < this.max) return this.open(taken)
    this.waiting.push(taken)
  }

  /** Asks the pool for a connection to share, which pg's pipeline mode lets many queries write on at once. */
  private open(taken: Taken): void {
    this.asking++
    this.pool.connect((error, client, release) => {
      this.asking--
      if (error || !client) {
        taken(error)
        // No connection opens: what waits for one fails as this did (the pool's deadline, or the server down).
        if (this.shared.length === 0 && this.asking === 0) for (const next of this.waiting.splice(0)) next(error)
        return
      }
      ;(client as Pipelining).pipeline = true
      const shared: Shared = { client, release, running: 0, leaving: false, answeredAt: 0 }
      this.shared.push(shared)
      taken(undefined, shared)
      for (const next of this.waiting.splice(0)) this.take(next)
    })
  }

  /**
   * While something else (a transaction, `connection()`) waits for the pool, one shared connection for each waiter
   * takes no new query and goes back to the pool once its own are answered. The one chosen for this query stays.
   */
  private makeRoomForOthers(chosen: Shared): void {
    const others = this.pool.waitingCount - this.asking
    if (others <= 0) return
    let leaving = 0
    for (const shared of this.shared) if (shared.leaving) leaving++
    for (const shared of this.shared) {
      if (leaving >= others) return
      if (shared === chosen || shared.leaving) continue
      shared.leaving = true
      leaving++
      if (shared.running === 0) this.giveBack(shared)
    }
  }

  /** A query of this connection was answered: the connection goes back to the pool once none runs. */
  private answered(shared: Shared): void {
    shared.running--
    if (shared.running === 0) this.giveBack(shared)
  }

  /** A connection pg gave up on takes no new query, and the pool drops it once its queries are answered. */
  private drop(shared: Shared, error: Error): void {
    shared.leaving = true
    shared.broken ??= error
  }

  private giveBack(shared: Shared): void {
    const at = this.shared.indexOf(shared)
    if (at === -1) return
    this.shared.splice(at, 1)
    ;(shared.client as Pipelining).pipeline = false
    // As kysely's driver does: a broken connection is given back with its error, and the pool drops it.
    shared.release(shared.broken ?? undefined)
    if (this.waiting.length > 0 && this.shared.length + this.asking < this.max) this.open(this.waiting.shift()!)
  }
}

/** pg 8.23's pipeline switch, which its types do not list yet. */
type Pipelining = PoolClient & { pipeline: boolean }

/** Whether pg gave up on the connection (it closed or failed): its queries cannot run on it any more. */
function isBroken(client: PoolClient): boolean {
  return (client as unknown as { _queryable?: boolean })._queryable === false
}
