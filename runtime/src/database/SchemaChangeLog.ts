import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely'

/** Statements that change the schema: on MySQL each commits at once, whatever transaction it runs in. */
const SCHEMA_NODES = new Set([
  'CreateTableNode',
  'AlterTableNode',
  'DropTableNode',
  'CreateIndexNode',
  'DropIndexNode',
  'CreateViewNode',
  'DropViewNode',
  'CreateSchemaNode',
  'DropSchemaNode',
  'CreateTypeNode',
  'DropTypeNode',
])
/** A raw statement (`sql\`…\``) that changes the schema. */
const SCHEMA_SQL = /^\s*(create|alter|drop|rename|truncate)\b/i

/**
 * A kysely plugin that keeps the schema statements a migration ran, as SQL, once each succeeded: on MySQL they stay
 * applied when the migration fails after them, and `fw migrate` names them. Only the statement's kind is looked at
 * on the way in; the text is compiled again, for the message, on the way out.
 *
 * @example
 * ```ts
 * const log = new SchemaChangeLog(trx)
 * await migration.up(trx.withPlugin(log))
 * log.statements // ['create table `posts` (…)']
 * ```
 */
export class SchemaChangeLog implements KyselyPlugin {
  readonly statements: string[] = []
  private readonly pending = new WeakMap<object, RootOperationNode>()

  constructor(private readonly compile: (node: RootOperationNode, queryId: PluginTransformQueryArgs['queryId']) => { sql: string }) {}

  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    if (SCHEMA_NODES.has(node.kind) || (node.kind === 'RawNode' && SCHEMA_SQL.test((node as { sqlFragments: readonly string[] }).sqlFragments[0] ?? ''))) {
      this.pending.set(queryId, node)
    }
    return node
  }

  async transformResult({ queryId, result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const node = this.pending.get(queryId)
    if (node) this.statements.push(this.compile(node, queryId).sql)
    return result
  }
}
