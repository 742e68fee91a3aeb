import { BlogModel } from './tables.js'

export class Category extends BlogModel('categories', { timestamps: false }) {
  static parent = this.belongsTo(() => Category, { foreignKey: 'parent_id' })
  static children = this.hasMany(() => Category, { foreignKey: 'parent_id' })
}
