// App/Models/Post.ts, compiled: a post, its author and its comments.
import { Model } from 'fw-runtime';
import { Comment } from './Comment.js';
import { User } from './User.js';
export class Post extends Model('posts') {
    static author = this.belongsTo(() => User);
    static comments = this.hasMany(() => Comment);
    static published = this.scope((query) => query.where('published', '=', true));
}
