import { BlogModel } from './tables.js'
import { User } from './User.js'

export class Profile extends BlogModel('profiles', { timestamps: false }) {
  static user = this.belongsTo(() => User)
}
