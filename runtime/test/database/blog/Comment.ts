import { Post } from './Post.js'
import { BlogModel } from './tables.js'
import { User } from './User.js'

export class Comment extends BlogModel('comments') {
  static post = this.belongsTo(() => Post)
  static author = this.belongsTo(() => User)
}
