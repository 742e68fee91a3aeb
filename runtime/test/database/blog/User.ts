import { Post } from './Post.js'
import { Profile } from './Profile.js'
import { BlogModel } from './tables.js'

// User and Post import each other: the relations name each other lazily, so neither is undefined when the other loads.
export class User extends BlogModel('users', { hidden: ['password_hash'], fillable: ['name', 'email'] }) {
  static posts = this.hasMany(() => Post, { foreignKey: 'author_id' })
  static profile = this.hasOne(() => Profile)
}
