import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  sql,
  type Kysely,
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryId,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely'
import { Container } from '../../../src/container/Container.js'
import { id, timestamps } from '../../../src/database/columns.js'
import { createDatabase } from '../../../src/database/createDatabase.js'
import { softDeletes } from '../../../src/database/softDeletes.js'
import { afterAll, beforeAll, beforeEach } from 'vitest'
import { startPostgres } from '../../support/postgres.js'

/** The blog's tables, on either database. */
export async function createBlog(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('users')
    .$call(id(db))
    .addColumn('name', 'varchar(255)', (column) => column.notNull())
    .addColumn('email', 'varchar(255)', (column) => column.notNull().unique())
    .addColumn('password_hash', 'varchar(255)', (column) => column.notNull())
    .$call(timestamps())
    .execute()
  await db.schema
    .createTable('profiles')
    .$call(id(db))
    .addColumn('user_id', 'integer', (column) => column.notNull())
    .addColumn('bio', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createTable('posts')
    .$call(id(db))
    .addColumn('author_id', 'integer', (column) => column.notNull())
    .addColumn('title', 'varchar(255)', (column) => column.notNull())
    .addColumn('body', 'text')
    .addColumn('status', 'varchar(20)', (column) => column.notNull().defaultTo('draft'))
    .addColumn('views', 'integer', (column) => column.notNull().defaultTo(0))
    .$call(timestamps())
    .$call(softDeletes())
    .execute()
  await db.schema
    .createTable('comments')
    .$call(id(db))
    .addColumn('post_id', 'integer', (column) => column.notNull())
    .addColumn('author_id', 'integer', (column) => column.notNull())
    .addColumn('body', 'text', (column) => column.notNull())
    .addColumn('stars', 'integer', (column) => column.notNull().defaultTo(0))
    .$call(timestamps())
    .execute()
  await db.schema.createTable('tags').$call(id(db)).addColumn('name', 'varchar(50)', (column) => column.notNull()).execute()
  await db.schema
    .createTable('post_tag')
    .addColumn('post_id', 'integer', (column) => column.notNull())
    .addColumn('tag_id', 'integer', (column) => column.notNull())
    .addPrimaryKeyConstraint('post_tag_pk', ['post_id', 'tag_id'])
    .execute()
  await db.schema
    .createTable('categories')
    .$call(id(db))
    .addColumn('parent_id', 'integer')
    .addColumn('name', 'varchar(50)', (column) => column.notNull())
    .execute()
}

/** Empties the blog's tables; keys start at 1 again (SQLite numbers from the largest key left, here none). */
export async function emptyBlog(db: Kysely<any>, postgres: boolean): Promise<void> {
  for (const table of ['users', 'profiles', 'posts', 'comments', 'tags', 'post_tag', 'categories']) {
    await db.deleteFrom(table).execute()
    if (postgres && table !== 'post_tag') await sql`alter table ${sql.table(table)} alter column id restart with 1`.execute(db)
  }
}

/**
 * The tables of each query the application runs, in order: what eager loading costs. A query is counted when its
 * result comes back, so a subquery (compiled into its parent, as whereHas's EXISTS) is not counted on its own.
 */
export class QueryLog implements KyselyPlugin {
  readonly tables: string[] = []
  readonly #compiled = new WeakMap<QueryId, string>()

  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    this.#compiled.set(queryId, node.kind === 'SelectQueryNode' ? tablesOf(node.from?.froms ?? []) : node.kind)
    return node
  }

  async transformResult({ result, queryId }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    this.tables.push(this.#compiled.get(queryId) ?? 'unknown')
    return result
  }

  clear(): void {
    this.tables.length = 0
  }
}

function tablesOf(froms: readonly OperationNode[]): string {
  return froms
    .map((from) => {
      const table = from.kind === 'AliasNode' ? (from as unknown as { node: OperationNode }).node : from
      return (table as unknown as { table: { identifier: { name: string } } }).table.identifier.name
    })
    .join(',')
}

/** An open blog database: the app's `db` service (through a query log), until `close()`. */
export interface Blog {
  db: Kysely<any>
  queries: QueryLog
  postgres: boolean
  close(): Promise<void>
}

/** SQLite in a file of its own, and a throwaway PostgreSQL: the blog's tables on each, as the container's `db`. */
export const backends: { name: string; open(): Promise<Blog> }[] = [
  {
    name: 'SQLite',
    async open() {
      const folder = mkdtempSync(join(tmpdir(), 'fw-blog-'))
      const database = createDatabase<any>(`sqlite:${join(folder, 'blog.sqlite')}`)
      return serve(database, false, async () => rmSync(folder, { recursive: true, force: true }))
    },
  },
  {
    name: 'PostgreSQL',
    async open() {
      const server = await startPostgres()
      return serve(createDatabase<any>(server.url), true, async () => server.stop())
    },
  },
]

async function serve(database: Kysely<any>, postgres: boolean, stop: () => Promise<void>): Promise<Blog> {
  await createBlog(database)
  const queries = new QueryLog()
  const db = database.withPlugin(queries)
  Container.setInstance(new Container().instance('db', db))
  return {
    db,
    queries,
    postgres,
    async close() {
      Container.setInstance(undefined)
      await database.destroy()
      await stop()
    },
  }
}

/**
 * The blog on a backend for the tests of a `describe` block: opened once, emptied and seeded before each test, with
 * the query log cleared after the seeding.
 */
export function useBlog(backend: (typeof backends)[number], seed: (blog: Blog) => Promise<void> = async () => {}): Blog {
  const blog = {} as Blog
  beforeAll(async () => {
    Object.assign(blog, await backend.open())
  }, 60_000)
  afterAll(() => blog.close?.())
  beforeEach(async () => {
    await emptyBlog(blog.db, blog.postgres)
    await seed(blog)
    blog.queries.clear()
  }, 60_000)
  return blog
}
