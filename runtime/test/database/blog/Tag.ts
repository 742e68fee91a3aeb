import { Post } from './Post.js'
import { BlogModel } from './tables.js'

export class Tag extends BlogModel('tags', { timestamps: false }) {
  static posts = this.belongsToMany(() => Post)
}
