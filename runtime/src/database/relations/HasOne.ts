import { HasOneOrMany } from './HasOneOrMany.js'

/**
 * The owner has one related row, which holds its key: a user's profile (`profiles.user_id`). Loaded, a row holds
 * it, or null; of several, the first by primary key.
 *
 * @example
 * ```ts
 * class User extends Model('users') {
 *   static profile = this.hasOne(() => Profile) // profiles.user_id = users.id
 * }
 * ```
 */
export class HasOne<R> extends HasOneOrMany<R, false> {
  readonly many = false
}
