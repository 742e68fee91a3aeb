import { createQueryId, NoResultError, type Compilable, type CompiledQuery, type Kysely, type QueryExecutor, type QueryNode, type QueryResult } from 'kysely'

/** A query built once per database, run with new values: what `compileQuery` returns. */
export interface PreparedQuery<DB, Args extends unknown[], O> {
  /** The rows the query returns. */
  execute(db: Kysely<DB>, ...args: Args): Promise<O[]>
  /** The first row the query returns, or undefined. */
  executeTakeFirst(db: Kysely<DB>, ...args: Args): Promise<O | undefined>
  /** The first row the query returns; NoResultError (from `fw-runtime`, kysely's) when there is none. */
  executeTakeFirstOrThrow(db: Kysely<DB>, ...args: Args): Promise<O>
  /** kysely's whole result: the rows, and `numAffectedRows` of an insert, update or delete. */
  executeQuery(db: Kysely<DB>, ...args: Args): Promise<QueryResult<O>>
}

/** The query compiled for one database and one number of arguments, and where each argument goes in its parameters. */
interface Template {
  query: CompiledQuery
  /** For each parameter, the index of the argument it takes, or -1 for a value written in the builder. */
  slots: number[]
}

/** What an argument is while the query is built: its place among the arguments, and a text that shows where it went. */
class Argument {
  constructor(readonly index: number) {}

  toString(): string {
    return `\u0000fw-argument-${this.index}`
  }
}

/**
 * A query built and compiled once for each database it runs on, then run with new values. kysely builds the
 * query's tree and compiles it to SQL on every run: for a small select that is about 10 µs of the server's core,
 * more than the driver's own work, paid again by every query of every request. `build` is called once per
 * database (and per number of arguments) with a stand-in for each argument, and the compiled SQL is kept; a run
 * puts its arguments where the stand-ins went.
 *
 * Each argument must go where a value goes, as it is: `where('id', '=', id)`, `.values({ name })`,
 * `.set({ stock })`, `.limit(count)`. One that decides how the query is built (`if (id)`, `sql.raw(id)`, an
 * `in` list whose length is the array's) cannot be, and is refused with an error naming it the first time the
 * query is built. A transaction (`db.transaction()`) builds it again for itself.
 *
 * @example
 * ```ts
 * const worldById = compileQuery((db: Kysely<Tables>, id: number) =>
 *   db.selectFrom('world').select(['id', 'randomNumber']).where('id', '=', id),
 * )
 * const world = await worldById.executeTakeFirstOrThrow(db(), 42)
 * ```
 */
export function compileQuery<DB, Args extends unknown[], O>(build: (db: Kysely<DB>, ...args: Args) => Compilable<O>): PreparedQuery<DB, Args, O> {
  const templates = new WeakMap<QueryExecutor, Map<number, Template>>()

  function templateFor(db: Kysely<DB>, count: number): Template {
    const executor = db.getExecutor()
    let byCount = templates.get(executor)
    if (!byCount) templates.set(executor, (byCount = new Map()))
    let template = byCount.get(count)
    if (!template) byCount.set(count, (template = compile(db, count)))
    return template
  }

  function compile(db: Kysely<DB>, count: number): Template {
    const stand = Array.from({ length: count }, (_, index) => new Argument(index)) as unknown as Args
    const query = build(db, ...stand).compile()
    const slots = query.parameters.map((parameter) => (parameter instanceof Argument ? parameter.index : -1))
    for (let index = 0; index < count; index++) {
      if (!slots.includes(index) || query.sql.includes(String(stand[index])) || query.parameters.some((parameter) => holds(parameter, index))) {
        throw new Error(
          `compileQuery: argument ${index + 1} is not a value of the query (${query.sql.replaceAll('\u0000', '')}): ` +
            `use it where a value goes, as it is (where('id', '=', id), values, set, limit), not to decide how the query is built`,
        )
      }
    }
    return { query, slots }
  }

  function executeQuery(db: Kysely<DB>, ...args: Args): Promise<QueryResult<O>> {
    let template: Template
    try {
      template = templateFor(db, args.length)
    } catch (error) {
      return Promise.reject(error)
    }
    const { query, slots } = template
    const parameters = slots.map((slot, index) => (slot === -1 ? query.parameters[index] : args[slot]))
    return db.executeQuery<O>({ ...query, queryId: createQueryId(), parameters })
  }

  return {
    executeQuery,
    execute: (db, ...args) => executeQuery(db, ...args).then((result) => result.rows),
    executeTakeFirst: (db, ...args) => executeQuery(db, ...args).then((result) => result.rows[0]),
    executeTakeFirstOrThrow: (db, ...args) =>
      executeQuery(db, ...args).then(({ rows }) => {
        if (rows.length === 0) throw new NoResultError(templateFor(db, args.length).query.query as QueryNode)
        return rows[0]!
      }),
  }
}

/** Whether a parameter written in the builder carries an argument inside it (an array, an object). */
function holds(parameter: unknown, index: number): boolean {
  if (parameter instanceof Argument || parameter === null || typeof parameter !== 'object') return false
  return Object.values(parameter).some((value) => (value instanceof Argument && value.index === index) || holds(value, index))
}
