/**
 * A reusable constraint of a model's queries, made by the model's static `scope()` and called as a method of its
 * query: `Post.query().published()`. The arguments after the query are the scope's own.
 *
 * @example
 * ```ts
 * class Post extends Model('posts') {
 *   static published = this.scope((query) => query.where('published', '=', true))
 *   static by = this.scope((query, authorId: number) => query.where('author_id', '=', authorId))
 * }
 * const mine = await Post.query().published().by(7).execute()
 * ```
 */
export class Scope<A extends unknown[] = any[]> {
  /** The scope's arguments, for the types of the query method (never a value at run time). */
  declare readonly '~args': A
  readonly apply: (query: any, ...args: A) => unknown

  constructor(apply: (query: any, ...args: A) => unknown) {
    this.apply = apply
  }
}
