import { foreignKeyOf, Relation, type AnySelect, type RelatedQuery } from './Relation.js'

/** The pivot table of `belongsToMany` and its keys. */
export interface BelongsToManyOptions<OwnerColumn extends string = string, RelatedColumn extends string = string> {
  /** The pivot table (default: the two models' snake_case names in alphabetical order, `post_tag`). */
  pivotTable?: string
  /** The pivot's column that holds the owner's key (default: `post_id` for the owner Post). */
  foreignPivotKey?: string
  /** The pivot's column that holds the related key (default: `tag_id` for the related Tag). */
  relatedPivotKey?: string
  /** The owner's column the pivot holds (default: its primary key). */
  parentKey?: OwnerColumn
  /** The related table's column the pivot holds (default: its primary key). */
  relatedKey?: RelatedColumn
}

/** The column the eager query selects from the pivot to know each related row's owner; taken off the rows after. */
const PIVOT_KEY = 'fw_pivot_key'

/**
 * Many owners and many related rows, linked by the rows of a pivot table: posts and tags through `post_tag`
 * (`post_id`, `tag_id`). Loaded, a row holds its related rows as an array, by their primary key.
 *
 * @example
 * ```ts
 * class Post extends Model('posts') {
 *   static tags = this.belongsToMany(() => Tag) // through post_tag (post_id, tag_id)
 * }
 * ```
 */
export class BelongsToMany<R> extends Relation<R, true> {
  readonly many = true
  readonly #options: BelongsToManyOptions

  constructor(owner: object, related: () => R, options: BelongsToManyOptions = {}) {
    super(owner, related)
    this.#options = options
  }

  protected keys() {
    const { owner, related } = this.configs()
    const foreignPivotKey = this.#options.foreignPivotKey ?? foreignKeyOf(this.owner)
    const relatedPivotKey = this.#options.relatedPivotKey ?? foreignKeyOf(this.related() as object)
    const names = [foreignKeyOf(this.owner), foreignKeyOf(this.related() as object)].map((key) => key.slice(0, -'_id'.length))
    return {
      pivot: this.#options.pivotTable ?? names.sort().join('_'),
      foreignPivotKey,
      relatedPivotKey,
      parentKey: this.#options.parentKey ?? owner.primaryKey,
      relatedKey: this.#options.relatedKey ?? related.primaryKey,
      table: related.table,
    }
  }

  protected parentKey(): string {
    return this.keys().parentKey
  }

  protected constrain(query: RelatedQuery, keys: unknown[]): { query: RelatedQuery; matchedBy: string } {
    const { pivot, foreignPivotKey, relatedPivotKey, relatedKey, table } = this.keys()
    return {
      query: query.modify((select) =>
        select
          .innerJoin(pivot, `${pivot}.${relatedPivotKey}`, `${table}.${relatedKey}`)
          .where(`${pivot}.${foreignPivotKey}`, 'in', keys)
          .select(`${pivot}.${foreignPivotKey} as ${PIVOT_KEY}`)
          .orderBy(`${table}.${relatedKey}`),
      ),
      matchedBy: PIVOT_KEY,
    }
  }

  protected override forget(rows: Record<string, unknown>[], column: string): void {
    for (const row of rows) delete row[column]
  }

  /** Links the owner's row to the related rows with one pivot row each (for factories' `has()`). */
  async attach(owner: Record<string, unknown>, related: readonly Record<string, unknown>[]): Promise<void> {
    if (related.length === 0) return
    const { pivot, foreignPivotKey, relatedPivotKey, parentKey, relatedKey } = this.keys()
    const rows = related.map((row) => ({ [foreignPivotKey]: owner[parentKey], [relatedPivotKey]: row[relatedKey] }))
    await this.configs().owner.database().insertInto(pivot).values(rows).execute()
  }

  correlate(subquery: AnySelect, relatedRef: string, ownerRef: string): AnySelect {
    const { pivot, foreignPivotKey, relatedPivotKey, parentKey, relatedKey } = this.keys()
    return subquery
      .innerJoin(pivot, `${pivot}.${relatedPivotKey}`, `${relatedRef}.${relatedKey}`)
      .whereRef(`${pivot}.${foreignPivotKey}`, '=', `${ownerRef}.${parentKey}`)
  }
}
