import { AssertionError } from 'node:assert'
import type { CompiledQuery, Kysely, KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryId, QueryResult, RootOperationNode, UnknownRow } from 'kysely'
import { Container } from '../container/Container.js'
import type { Database } from '../database/Tables.js'
import { markCounted } from '../database/uncounted.js'

/**
 * Runs `work` and checks that it made exactly `count` queries on the application's database, as a guard against
 * N+1 queries: a page that loads each post's author one by one makes one query more per post. Every query made
 * through `db()` while `work` runs is counted, models and fw-runtime's own (sessions, tokens) included, the test
 * client's requests and a server's in the same process alike; a query is counted when it answers. Not counted:
 * `maintenanceMode`'s check, which reads at most once a second whatever the work does. Fails listing the SQL of each
 * query. Returns what `work` returns.
 *
 * @example
 * ```ts
 * await Post.createMany(posts) // 10 posts by 10 authors
 * await expectQueries(2, () => client.get('/posts')) // the posts, then their authors at once (`with('author')`)
 * ```
 */
export async function expectQueries<T>(count: number, work: () => T | Promise<T>): Promise<T> {
  const container = Container.getInstance()
  const database = container.make<Database>('db')
  const log = new QueryLog(database)
  const counted = database.withPlugin(log)
  markCounted(counted, database)
  // A query compiled ahead (`compileQuery`) is run by `executeQuery`, past every plugin's transformQuery.
  const execute = counted.executeQuery.bind(counted)
  counted.executeQuery = ((query: CompiledQuery, ...rest: unknown[]) => {
    log.remember(query)
    return (execute as (query: CompiledQuery, ...rest: unknown[]) => unknown)(query, ...rest)
  }) as typeof counted.executeQuery
  container.instance('db', counted)
  let result: T
  try {
    result = await work()
  } finally {
    container.instance('db', database)
  }
  if (log.queries.length !== count) {
    const queries = log.queries.map((query, index) => `  ${index + 1}. ${query}`).join('\n')
    throw new AssertionError({ message: `Expected ${count} ${count === 1 ? 'query' : 'queries'}, ${log.queries.length} ran${queries ? `:\n${queries}` : ''}` })
  }
  return result
}

/** The SQL of each query that answered, in order. */
class QueryLog implements KyselyPlugin {
  readonly queries: string[] = []
  readonly #sql = new WeakMap<QueryId, string>()

  constructor(private readonly database: Kysely<any>) {}

  remember(query: CompiledQuery): void {
    this.#sql.set(query.queryId, query.sql)
  }

  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    this.#sql.set(queryId, this.database.getExecutor().compileQuery(node, queryId).sql)
    return node
  }

  async transformResult({ result, queryId }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    this.queries.push(this.#sql.get(queryId) ?? '(a query whose SQL was not seen)')
    return result
  }
}
