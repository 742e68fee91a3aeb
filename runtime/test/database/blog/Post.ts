import { Comment } from './Comment.js'
import { BlogModel } from './tables.js'
import { Tag } from './Tag.js'
import { User } from './User.js'

export class Post extends BlogModel('posts', { softDeletes: true, fillable: ['author_id', 'title', 'body', 'status'] }) {
  static author = this.belongsTo(() => User)
  static comments = this.hasMany(() => Comment)
  static tags = this.belongsToMany(() => Tag)
  static published = this.scope((query) => query.where('status', '=', 'published'))
  static viewedAtLeast = this.scope((query, views: number) => query.where('views', '>=', views))
  static commented = this.scope((query) => query.whereHas('comments'))
}
