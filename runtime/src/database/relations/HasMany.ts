import { HasOneOrMany } from './HasOneOrMany.js'

/**
 * The owner has many related rows, which hold its key: a post's comments (`comments.post_id`). Loaded, a row
 * holds them as an array, by their primary key (or the order the eager query asks for).
 *
 * @example
 * ```ts
 * class Post extends Model('posts') {
 *   static comments = this.hasMany(() => Comment) // comments.post_id = posts.id
 * }
 * ```
 */
export class HasMany<R> extends HasOneOrMany<R, true> {
  readonly many = true
}
