import { foreignKeyOf, Relation, type AnySelect, type RelatedQuery } from './Relation.js'

/** The keys of `hasMany` and `hasOne`: the related table's column that holds the owner's key. */
export interface HasOptions<RelatedColumn extends string = string, OwnerColumn extends string = string> {
  /** The related table's column that holds the owner's key (default: the owner's class name in snake_case + `_id`, `post_id`). */
  foreignKey?: RelatedColumn
  /** The owner's column it holds (default: the owner's primary key). */
  localKey?: OwnerColumn
}

/** `hasMany` and `hasOne`: the related rows hold the owner's key. */
export abstract class HasOneOrMany<R, Many extends boolean> extends Relation<R, Many> {
  readonly #options: HasOptions

  constructor(owner: object, related: () => R, options: HasOptions = {}) {
    super(owner, related)
    this.#options = options
  }

  protected keys(): { foreignKey: string; localKey: string; table: string; relatedKey: string } {
    const { owner, related } = this.configs()
    return {
      foreignKey: this.#options.foreignKey ?? foreignKeyOf(this.owner),
      localKey: this.#options.localKey ?? owner.primaryKey,
      table: related.table,
      relatedKey: related.primaryKey,
    }
  }

  protected parentKey(): string {
    return this.keys().localKey
  }

  protected constrain(query: RelatedQuery, keys: unknown[]): { query: RelatedQuery; matchedBy: string } {
    const { foreignKey, table, relatedKey } = this.keys()
    return {
      query: query.modify((select) => select.where(`${table}.${foreignKey}`, 'in', keys).orderBy(`${table}.${relatedKey}`)),
      matchedBy: foreignKey,
    }
  }

  /** A related row's column values that make it the owner's: `{ post_id: post.id }` (for factories' `has()`). */
  valuesFor(owner: Record<string, unknown>): Record<string, unknown> {
    const { foreignKey, localKey } = this.keys()
    return { [foreignKey]: owner[localKey] }
  }

  correlate(subquery: AnySelect, relatedRef: string, ownerRef: string): AnySelect {
    const { foreignKey, localKey } = this.keys()
    return subquery.whereRef(`${relatedRef}.${foreignKey}`, '=', `${ownerRef}.${localKey}`)
  }
}
