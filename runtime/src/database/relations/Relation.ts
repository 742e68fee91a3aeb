import type { SelectQueryBuilder } from 'kysely'
import { modelConfig, type ModelConfig } from '../ModelConfig.js'

/** A kysely select of any table, as relations add their constraints to the related model's query. */
export type AnySelect = SelectQueryBuilder<any, any, any>

/** What a relation needs of the related model's query (a ModelQuery). */
export interface RelatedQuery {
  modify(build: (query: AnySelect) => AnySelect): RelatedQuery
  execute(): Promise<Record<string, any>[]>
}

/** A row of any model, as relations read and fill them. */
type Row = Record<string, any>

/** The most keys one query binds: SQLite takes 32,766 parameters, PostgreSQL 65,535. */
const KEYS_PER_QUERY = 30_000

/**
 * A relation between two models, declared as a static property of the owner with `this.hasMany(...)` and
 * friends. The related model is a function (`() => Comment`), called when the relation is first used, so that
 * two model files may import each other.
 */
export abstract class Relation<R = any, Many extends boolean = boolean> {
  /** Whether a row holds an array of related rows or one row (or null). */
  abstract readonly many: Many
  /** The model class that declared the relation. */
  readonly owner: object
  /** The property name of the relation on its owner, known when it is first used. */
  name = ''
  readonly #related: () => R

  constructor(owner: object, related: () => R) {
    this.owner = owner
    this.#related = related
  }

  /** The related model class. */
  related(): R {
    const model = this.#related()
    if (model === undefined) {
      throw new TypeError(`The relation "${this.name}" of ${describe(this.owner)} names no model yet: reference it lazily, as () => Model`)
    }
    return model
  }

  /** The owner's configuration and the related model's, resolved when the relation is first used. */
  protected configs(): { owner: ModelConfig; related: ModelConfig } {
    return { owner: modelConfig(this.owner), related: modelConfig(this.related() as object) }
  }

  /** The owner's column whose values the related rows match. */
  protected abstract parentKey(): string

  /** The related query narrowed to the keys, and the name of the column of its rows that holds the matching key. */
  protected abstract constrain(query: RelatedQuery, keys: unknown[]): { query: RelatedQuery; matchedBy: string }

  /** Only the related rows that belong to the row `ownerRef` names, for `whereHas`: the correlation of an EXISTS. */
  abstract correlate(subquery: AnySelect, relatedRef: string, ownerRef: string): AnySelect

  /**
   * Loads the relation of every row with one query (one per 30,000 distinct keys), whatever the number of rows,
   * and puts it on each row under the relation's name: an array, or a row or null.
   */
  async eagerLoad(rows: Row[], query: RelatedQuery): Promise<void> {
    const parentKey = this.parentKey()
    const keys = [...new Set(rows.map((row) => row[parentKey]).filter((key) => key !== null && key !== undefined))]
    let related: Row[] = []
    let matchedBy = ''
    for (let start = 0; start < keys.length; start += KEYS_PER_QUERY) {
      const narrowed = this.constrain(query, keys.slice(start, start + KEYS_PER_QUERY))
      matchedBy = narrowed.matchedBy
      related = related.concat(await narrowed.query.execute())
    }
    const byKey = new Map<string, Row[]>()
    for (const row of related) {
      const key = String(row[matchedBy])
      const group = byKey.get(key)
      if (group) group.push(row)
      else byKey.set(key, [row])
    }
    this.forget(related, matchedBy)
    for (const row of rows) {
      const group = byKey.get(String(row[parentKey])) ?? []
      row[this.name] = this.many ? group : (group[0] ?? null)
    }
  }

  /** Takes the matching column off the related rows when the relation added it to them (a pivot's key). */
  protected forget(_rows: Row[], _column: string): void {}
}

/** `BlogPost` → `blog_post_id`: the foreign key that names a model, as Laravel derives it from the class name. */
export function foreignKeyOf(model: object): string {
  const name = (model as { name?: string }).name
  if (!name) throw new TypeError('A relation of an anonymous model class needs its keys named in its options')
  return `${snakeCase(name)}_id`
}

/** `BlogPost` → `blog_post`, `blogAuthor` → `blog_author`. */
export function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
    .toLowerCase()
}

function describe(model: object): string {
  return (model as { name?: string }).name || 'a model'
}
