import { Relation, snakeCase, type AnySelect, type RelatedQuery } from './Relation.js'

/** The keys of `belongsTo`: the owner's column that holds the related row's key. */
export interface BelongsToOptions<OwnerColumn extends string = string, RelatedColumn extends string = string> {
  /** The owner's column that holds the related key (default: the relation's name + `_id`, `author_id` for `author`). */
  foreignKey?: OwnerColumn
  /** The related table's column it holds (default: the related model's primary key). */
  ownerKey?: RelatedColumn
}

/**
 * The owner holds the key of one related row: a post's author (`posts.author_id`). Loaded, a row holds it, or
 * null when the key is null or names no row.
 *
 * @example
 * ```ts
 * class Post extends Model('posts') {
 *   static author = this.belongsTo(() => User) // users.id = posts.author_id
 * }
 * ```
 */
export class BelongsTo<R> extends Relation<R, false> {
  readonly many = false
  readonly #options: BelongsToOptions

  constructor(owner: object, related: () => R, options: BelongsToOptions = {}) {
    super(owner, related)
    this.#options = options
  }

  protected keys(): { foreignKey: string; ownerKey: string; table: string } {
    const { related } = this.configs()
    return {
      foreignKey: this.#options.foreignKey ?? `${snakeCase(this.name)}_id`,
      ownerKey: this.#options.ownerKey ?? related.primaryKey,
      table: related.table,
    }
  }

  protected parentKey(): string {
    return this.keys().foreignKey
  }

  protected constrain(query: RelatedQuery, keys: unknown[]): { query: RelatedQuery; matchedBy: string } {
    const { ownerKey, table } = this.keys()
    return { query: query.modify((select) => select.where(`${table}.${ownerKey}`, 'in', keys)), matchedBy: ownerKey }
  }

  /** The owner's column values that make it belong to `parent`: `{ author_id: user.id }` (for factories' `for()`). */
  valuesFor(parent: Record<string, unknown>): Record<string, unknown> {
    const { foreignKey, ownerKey } = this.keys()
    return { [foreignKey]: parent[ownerKey] }
  }

  correlate(subquery: AnySelect, relatedRef: string, ownerRef: string): AnySelect {
    const { foreignKey, ownerKey } = this.keys()
    return subquery.whereRef(`${relatedRef}.${ownerKey}`, '=', `${ownerRef}.${foreignKey}`)
  }
}
